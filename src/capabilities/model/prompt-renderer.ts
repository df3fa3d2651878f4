/**
 * Renders prompts from Handlebars templates (strict mode: a variable the template uses but was not
 * given is an error, not an empty string). Layout of the roles folder:
 *   roles/_shared/system.hbs         the system prompt: the same for every role and step (a prompt cache serves it)
 *   roles/_shared/documents.hbs      what every request opens with: the run's documents as they stand (the `documents` view)
 *   roles/_shared/role.hbs           who the role is, after them (without the two: the role is in system.hbs, as before)
 *   roles/_shared/format-<kind>.hbs  output-format instructions: last, or where the template says `{{outputFormat}}`
 *   roles/_shared/repair.hbs         the re-ask after an invalid reply (error, excerpt, partial)
 *   roles/_shared/guidance.hbs       a person's guidance (`resume --hint`), before the format, or last
 *   roles/_shared/rules.hbs          the rules the reply must meet (the checks after the step), before the format, or last
 *   roles/_shared/project-instructions.hbs  the project's own instructions (AGENTS.md, --instructions), after the system prompt
 *   roles/_shared/*.hbs              also available to every template as partials ({{> name}})
 *   roles/<role>/<action>.hbs        the request of one SOP step
 */
import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import type { RoleProfile } from '../../engine/roles/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { fence } from '../../ground/markdown.ts';
import type { WarmUpTask } from './warm-up.ts';

/** Strict: a name a template uses but was not given is an error. Prompts are text, not HTML: no escaping. */
const COMPILE_OPTIONS = { strict: true, noEscape: true } as const;

/** The role as templates see it: `reviewing` (whose work a review judges) is always there, null outside a review. */
const roleView = (profile: RoleProfile): Omit<RoleProfile, 'reviewing'> & { reviewing: RoleProfile['reviewing'] | null } => ({ reviewing: null, ...profile });

/**
 * Each template text compiled once per process, whatever renderer asks: a worker's runs each make a
 * renderer of their own (a run's helpers are its own), and compiling the same templates again for every
 * run was the largest share of a warm worker's own time per run (docs/performance.md, "Many runs").
 * Keyed by the text, so a template edited between runs is compiled anew. Handlebars binds a compiled
 * specification to an environment's helpers and partials at `template()`, which is cheap.
 */
const specifications = new Map<string, TemplateSpecification>();

/** Like `handlebars.compile`: compiled on the first call (a template that does not compile says so when used). */
function compiledIn(handlebars: typeof Handlebars, source: string): HandlebarsTemplateDelegate {
  let bound: HandlebarsTemplateDelegate | null = null;
  return (context, options) => {
    if (!bound) {
      let specification = specifications.get(source);
      if (!specification) {
        // Handlebars' own precompiled form, made into the object `compile` builds from it.
        specification = new Function(`return ${Handlebars.precompile(source, COMPILE_OPTIONS)}`)() as TemplateSpecification;
        specifications.set(source, specification);
      }
      bound = handlebars.template(specification);
    }
    return bound(context, options);
  };
}

/** The documents a request opens with (the `documents` view), by the type `{{markdown}}` renders them as. */
const PREFIX_NAMES: Readonly<Record<string, string>> = { PRD: 'prd', Design: 'design' };

/** Whether the request opens with the document `name` and `value` is it (absent: the step was given no other). */
function sameAsOpening(root: unknown, name: string, value: unknown): boolean {
  const documents = (root as { documents?: Record<string, unknown> } | undefined)?.documents;
  const opening = documents?.[name];
  if (opening === null || opening === undefined) return false;
  return value === undefined || value === opening || JSON.stringify(value) === JSON.stringify(opening);
}

/** The documents a draft can be (the `documents` view's names, which are also the views that give a step its draft). */
const DRAFTABLE = ['changeRequest', 'designDelta', 'prd', 'design'] as const;

/**
 * The documents a request opens with, and in them a draft the step is given (a PRD under review or
 * revision, a design being fixed) where that document will stand once published: the step after it —
 * the next review, or the first step given it published — then shares the prefix through it.
 * `drafts` says which are drafts (documents.hbs says so after each).
 */
function withDrafts(documents: unknown, variables: Record<string, unknown>): unknown {
  if (!documents || typeof documents !== 'object') return documents;
  const published = documents as Record<string, unknown>;
  const drafts = DRAFTABLE.filter((name) => (published[name] ?? null) === null && variables[name] !== null && typeof variables[name] === 'object');
  const opening: Record<string, unknown> = { ...published, drafts: Object.fromEntries(DRAFTABLE.map((name) => [name, drafts.includes(name)])) };
  for (const name of drafts) opening[name] = variables[name];
  return opening;
}

/** What `{{outputFormat}}` renders as, for render() to put the rules, guidance and format there. */
const FORMAT_MARK = '\u0000output format\u0000';

/** A rendered request split where its template put `{{outputFormat}}` (own: null when it did not). */
function splitAtFormat(request: string): [fixed: string, own: string | null] {
  const at = request.indexOf(FORMAT_MARK);
  if (at < 0) return [request, null];
  return [request.slice(0, at), request.slice(at + FORMAT_MARK.length).replaceAll(FORMAT_MARK, '')];
}

export type OutputKind = 'json' | 'code' | 'files' | 'edits';

/** What the format templates (roles/_shared/format-<kind>.hbs) are given: the kind, the schema or path, the reply's limit. */
export interface PromptFormat {
  kind: OutputKind;
  schema?: string;
  path?: string;
  /** The most tokens one request's reply may take, and about as many characters; null or absent: not said. */
  replyTokens?: number | null;
  replyChars?: number | null;
  /** When a reply cut off there is continued: the most all its parts may take; null or absent: it is not. */
  continuedTokens?: number | null;
  continuedChars?: number | null;
}

export interface RenderedPrompt {
  system: string;
  user: string;
}

/** Markdown renderings of artifacts by name, for `{{markdown "PRD" prd}}`. */
export type MarkdownRenderers = Readonly<Record<string, (value: unknown) => string>>;

export class PromptRenderer {
  private readonly handlebars = Handlebars.create();
  private readonly compiled = new Map<string, HandlebarsTemplateDelegate>();
  private readonly partials: HandlebarsTemplateDelegate[] = [];

  /**
   * `markdown`: the artifacts the `markdown` helper renders (assembled with the vocabulary, src/company/vocabulary.ts).
   * `projectInstructions`: the run's instructions (src/company/project-instructions.ts), shown to every role; null: none.
   */
  constructor(
    readonly rolesDir: string,
    markdown: MarkdownRenderers,
    private readonly projectInstructions: string | null = null,
  ) {
    this.handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value, null, 2));
    this.handlebars.registerHelper('markdown', (type: string, value: unknown, options: Handlebars.HelperOptions) => {
      const render = markdown[type];
      if (!render) throw new Error(`markdown helper: no renderer for "${type}" (known: ${Object.keys(markdown).join(', ')})`);
      // A document the prompt opens with is not shown twice: a template's copy of it points there.
      const name = PREFIX_NAMES[type];
      if (name && sameAsOpening(options.data?.root, name, value)) return `(The ${type} is in the run's documents above.)`;
      return render(value);
    });
    // `(above "changeRequest")`: the prompt opens with this document as the step's view has it (a partial then points there).
    this.handlebars.registerHelper('above', (name: unknown, options: Handlebars.HelperOptions) => {
      const root = options.data?.root as Record<string, unknown> | undefined;
      return typeof name === 'string' && sameAsOpening(root, name, root && name in root ? root[name] : undefined);
    });
    // A file, a diff or a diagram in a fence longer than any fence inside it: a README's own ``` blocks stay in it.
    this.handlebars.registerHelper('fence', (text: unknown, language: unknown) => fence(String(text ?? ''), typeof language === 'string' ? language : ''));
    this.handlebars.registerHelper('join', (items: unknown, separator: unknown) =>
      Array.isArray(items) ? items.join(typeof separator === 'string' ? separator : ', ') : '',
    );
    // `(includes list item)` and `(paths files)`: a partial leaves out what the prompt shows whole elsewhere.
    this.handlebars.registerHelper('includes', (items: unknown, item: unknown) => Array.isArray(items) && items.includes(item));
    this.handlebars.registerHelper('paths', (items: unknown) =>
      Array.isArray(items) ? items.map((entry) => (entry && typeof entry === 'object' ? (entry as { path?: unknown }).path : undefined)) : [],
    );
    // `(firstLine text)`: a message's first line, for a list that names many (a test's failure beside its name).
    this.handlebars.registerHelper('firstLine', (text: unknown) => (typeof text === 'string' ? (text.split('\n')[0] ?? '').trim().slice(0, 240) : ''));
    // `{{outputFormat}}`: where the rules, guidance and output format go (render(), splitAtFormat); absent: last.
    this.handlebars.registerHelper('outputFormat', () => FORMAT_MARK);
    // `(criterionId "AC" @index)`: a criterion's id from its place in its list (src/documents/criteria.ts).
    this.handlebars.registerHelper('criterionId', (prefix: unknown, index: unknown) => `${String(prefix)}-${Number(index) + 1}`);
    // A file written for people to read (a README, a user guide): its prompt carries what users are promised.
    this.handlebars.registerHelper('isDocument', (file: unknown) => typeof file === 'string' && /\.(md|markdown|rst|adoc)$/i.test(file));
    const shared = path.join(rolesDir, '_shared');
    if (fs.existsSync(shared)) {
      for (const entry of fs.readdirSync(shared)) {
        if (!entry.endsWith('.hbs')) continue;
        // Registered compiled (with the templates' own options, as Handlebars would compile them on first
        // use), so that warmUp can compile them ahead of use too.
        const partial = compiledIn(this.handlebars, fs.readFileSync(path.join(shared, entry), 'utf8'));
        this.partials.push(partial);
        this.handlebars.registerPartial(entry.slice(0, -4), partial);
      }
    }
  }

  templatePath(role: string, action: string): string {
    return path.join(this.rolesDir, role, `${action}.hbs`);
  }

  /**
   * Renders one SOP step's request: system prompt from the profile, request plus format instructions —
   * with, between the two, the rules the reply must meet (the checks it will face) and, when a person
   * gave guidance for the step (`resume --hint`), that guidance; or, where the template says
   * `{{outputFormat}}`, the format there and the rules and guidance last.
   */
  render(
    profile: RoleProfile,
    action: string,
    variables: Record<string, unknown>,
    format: PromptFormat,
    guidance: string | null = null,
    rules: readonly string[] = [],
  ): RenderedPrompt {
    const system = this.renderSystem(profile);
    const documents = withDrafts(variables.documents, variables);
    const given = documents === variables.documents ? variables : { ...variables, documents };
    const request = this.renderFile(this.templatePath(profile.id, action), { ...given, role: roleView(profile) });
    const instructions = this.renderFile(path.join(this.rolesDir, '_shared', `format-${format.kind}.hbs`), {
      replyTokens: null,
      replyChars: null,
      continuedTokens: null,
      continuedChars: null,
      ...format,
    });
    const stated = rules.length === 0 ? '' : `${this.renderRules(rules).trimEnd()}\n\n`;
    const said = guidance === null ? '' : `${this.renderGuidance(guidance).trimEnd()}\n\n`;
    // A template that puts `{{outputFormat}}` before the call's own part (a review's file, a file's task)
    // gets the format there, and the rules and guidance (which name the file) after that part: the calls
    // of the step then share a prefix through the format. Otherwise the three close the request.
    const [fixed, own] = splitAtFormat(request);
    const user =
      own === null
        ? `${fixed.trimEnd()}\n\n${stated}${said}${instructions.trimEnd()}\n`
        : `${fixed.trimEnd()}\n\n${instructions.trimEnd()}\n\n${own.trim()}\n\n${stated}${said}`.trimEnd() + '\n';
    return { system, user: `${this.renderOpening(profile, documents)}${user}` };
  }

  /**
   * What every request opens with, before the step's own text (docs/performance.md, "Prompt caches"): the
   * run's documents as they stand (documents.hbs, from the `documents` view), then who the role is
   * (role.hbs) — so that the calls of every role and step share one prefix, the system prompt being the
   * same for all. A roles folder made before the two existed keeps the role in its system prompt and
   * each step's documents where its templates put them: empty.
   */
  private renderOpening(profile: RoleProfile, documents: unknown): string {
    const shared = (name: string) => path.join(this.rolesDir, '_shared', `${name}.hbs`);
    if (!this.layeredForCache()) return '';
    const opening = documents ? `${this.renderFile(shared('documents'), { prefix: documents }).trimEnd()}\n\n` : '';
    return `${opening}${this.renderFile(shared('role'), { role: roleView(profile) }).trimEnd()}\n\n`;
  }

  private layeredForCache(): boolean {
    return ['documents', 'role'].every((name) => fs.existsSync(path.join(this.rolesDir, '_shared', `${name}.hbs`)));
  }

  /**
   * A step's prompt without what its views give it, for the context plan (context-plan.ts): the system
   * prompt, the template's own text (its partials' included, every `{{…}}` left out) and the format
   * instructions with the schema.
   */
  renderFixed(profile: RoleProfile, action: string, format: PromptFormat): RenderedPrompt {
    const system = this.renderSystem(profile);
    const source = (file: string, depth = 0): string =>
      (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').replace(/\{\{>\s*([\w-]+)[^}]*\}\}|\{\{[\s\S]*?\}\}/g, (_tag, partial: string | undefined) =>
        partial && depth < 4 ? source(path.join(this.rolesDir, '_shared', `${partial}.hbs`), depth + 1) : '',
      );
    const instructions = this.renderFile(path.join(this.rolesDir, '_shared', `format-${format.kind}.hbs`), {
      replyTokens: null,
      replyChars: null,
      continuedTokens: null,
      continuedChars: null,
      ...format,
    });
    // The role's part is fixed text; the documents the request opens with are views (sop-prompts.ts counts them).
    const role = this.layeredForCache() ? `${this.renderFile(path.join(this.rolesDir, '_shared', 'role.hbs'), { role: roleView(profile) }).trimEnd()}\n\n` : '';
    return { system, user: `${role}${source(this.templatePath(profile.id, action)).trimEnd()}\n\n${instructions.trimEnd()}\n` };
  }

  /** The role's system prompt, and the project's instructions after it (a stable prefix: every call of the role shares it). */
  private renderSystem(profile: RoleProfile): string {
    const system = this.renderFile(path.join(this.rolesDir, '_shared', 'system.hbs'), { role: roleView(profile) });
    if (this.projectInstructions === null) return system;
    const file = path.join(this.rolesDir, '_shared', 'project-instructions.hbs');
    // A roles folder made before project-instructions.hbs existed still shows them, under this heading.
    const said = fs.existsSync(file)
      ? this.renderFile(file, { instructions: this.projectInstructions })
      : `## The project's own instructions\n${this.projectInstructions}`;
    return `${system.trimEnd()}\n\n${said.trimEnd()}\n`;
  }

  /** A roles folder made before rules.hbs existed still states the rules, in these words. */
  private renderRules(rules: readonly string[]): string {
    const file = path.join(this.rolesDir, '_shared', 'rules.hbs');
    return fs.existsSync(file) ? this.renderFile(file, { rules }) : `## Rules your reply must meet\n${rules.map((rule) => `- ${rule}`).join('\n')}`;
  }

  /** A roles folder made before guidance.hbs existed still shows the guidance, in these words. */
  private renderGuidance(guidance: string): string {
    const file = path.join(this.rolesDir, '_shared', 'guidance.hbs');
    return fs.existsSync(file) ? this.renderFile(file, { guidance }) : `## Guidance from a person\n${guidance}`;
  }

  /**
   * Tasks compiling, ahead of their first use (warm-up.ts), the shared templates and the templates of
   * these roles: Handlebars compiles a template on its first call, a few ms each, which would otherwise
   * be paid on the run's critical path. A template compiled by then is skipped.
   */
  warmUpTasks(roles: readonly string[]): WarmUpTask[] {
    const shared = ['system', 'repair', 'format-json', 'format-code', 'format-files'].map((name) => this.warmUpTask(null, name));
    const own = roles.flatMap((role) => {
      const dir = path.join(this.rolesDir, role);
      const names = fs.existsSync(dir)
        ? fs
            .readdirSync(dir)
            .filter((f) => f.endsWith('.hbs'))
            .sort()
        : [];
      return names.map((file) => this.warmUpTask(role, file.slice(0, -4)));
    });
    return [...this.partials.map((partial) => () => compileNow(partial)), ...shared, ...own];
  }

  /** A task compiling one template ahead of use: a role's (`roles/<role>/<name>.hbs`) or, for role null, a shared one. */
  warmUpTask(role: string | null, name: string): WarmUpTask {
    const file = path.join(this.rolesDir, role ?? '_shared', `${name}.hbs`);
    return () => {
      if (!this.compiled.has(file) && fs.existsSync(file)) compileNow(this.template(file));
    };
  }

  /**
   * The re-ask after an invalid reply, appended to the first attempt's request (so the prompt keeps its
   * prefix): the validation error and an excerpt of the rejected reply around the problem (reask.ts).
   */
  renderRepair(reask: { error: string; excerpt: string; partial: boolean; earlier?: readonly string[] }, format: PromptFormat): string {
    return this.renderFile(path.join(this.rolesDir, '_shared', 'repair.hbs'), { earlier: [], replyTokens: null, replyChars: null, ...reask, ...format });
  }

  private renderFile(file: string, variables: Record<string, unknown>): string {
    const template = this.template(file);
    try {
      return template(variables);
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      throw new SopworksError('TEMPLATE_INVALID', `Template ${file} failed to render: ${message}`, {
        hint: `It was given: ${Object.keys(variables).sort().join(', ')}. Add the missing name to the SOP step's "with" list, or remove it from the template.`,
      });
    }
  }

  private template(file: string): HandlebarsTemplateDelegate {
    let template = this.compiled.get(file);
    if (!template) {
      let source: string;
      try {
        source = fs.readFileSync(file, 'utf8');
      } catch {
        throw new SopworksError('TEMPLATE_INVALID', `Template ${file} is missing.`, {
          hint: 'Every ask step of a SOP needs roles/<role>/<action>.hbs; run `sopworks sop init` for the defaults.',
        });
      }
      template = compiledIn(this.handlebars, source);
      this.compiled.set(file, template);
    }
    return template;
  }
}

/**
 * Handlebars compiles on a template's first call: with no variables, strict mode stops it right after,
 * at the first name it uses. The error it throws is built without a stack: Handlebars reads the stack of
 * its errors, and the first stack read in a process maps every frame through the source maps (tsx),
 * some 20 ms here — more than the compiling itself.
 */
function compileNow(template: HandlebarsTemplateDelegate): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    template({});
  } catch {
    // expected: see above; a template that does not compile says so when it is used
  } finally {
    Error.stackTraceLimit = limit;
  }
}
