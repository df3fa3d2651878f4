/**
 * The authorization policy (sops/policy.yaml): which paths each role may write, what may run in the
 * sandbox, and whether dependencies may be installed. The schema and the default, which is what a
 * --sops folder without policy.yaml gets (sops/policy.yaml ships the same, with comments).
 */
import { z } from 'zod';

/** A project-relative glob (minimatch; dotfiles included); a trailing "/" means the whole folder. */
const Glob = z
  .string()
  .trim()
  .min(1, 'a path pattern must not be empty')
  .refine(
    (glob) => !glob.startsWith('/') && !glob.split('/').includes('..'),
    'a path pattern is relative to the project root and stays inside it (no leading "/", no "..")',
  );

/** A command prefix as words: "npm test" allows `npm test` and `npm test -- --watch=false`. */
const CommandPrefix = z
  .string()
  .trim()
  .min(1, 'a command must not be empty')
  .refine((command) => !/["'`$;&|<>]/.test(command), 'write a command as plain words, without quotes or shell syntax');

export const RolePolicy = z
  .object({
    /** Paths the role may write (commit). */
    write: z.array(Glob).default([]),
    /** Paths excepted from `write`. */
    except: z.array(Glob).default([]),
    /** Commands the role may run in the sandbox, as word prefixes. */
    run: z.array(CommandPrefix).default([]),
    /**
     * Also the repository's own tools, nothing fetched: a package.json script (`npm run <script>`, `pnpm
     * <script>`, `yarn <script>`) and a binary its installed dependencies provide (`npx <bin>`, `pnpm exec
     * <bin>`, `yarn <bin>`), started from node_modules/.bin (src/host/runners/).
     */
    runInstalled: z.boolean().optional(),
  })
  .strict();

export const PolicyFile = z
  .object({
    /** Paths no role may write, whatever its own list says. */
    protected: z.array(Glob).default([]),
    /** Per role id. */
    roles: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/, 'a role id: lower-case letters, digits and dashes'), RolePolicy).default({}),
    /** What a role not named under `roles` may do (a new role added with YAML only, say). */
    otherRoles: RolePolicy.default({ write: [], except: [], run: [] }),
    dependencies: z
      .object({
        /** Install the project's declared dependencies (its manifest) before its tests, in the sandbox. */
        install: z.boolean().default(true),
        /** The roles that may run that install (its SOP step `installDependencies`). */
        by: z.array(z.string().regex(/^[a-z][a-z0-9-]*$/, 'a role id: lower-case letters, digits and dashes')).default(['qa']),
        /** Let that install reach the registry; the tests never reach the network. */
        network: z.boolean().default(true),
        /** Let packages' install (lifecycle and build) scripts run during the install. */
        scripts: z.boolean().default(false),
        /** Where packages come from (SOPWORKS_NPM_REGISTRY / SOPWORKS_PIP_INDEX_URL override them); null: the ecosystem's default. */
        registries: z
          .object({ npm: z.string().url().nullable().default(null), pip: z.string().url().nullable().default(null) })
          .strict()
          .default({ npm: null, pip: null }),
      })
      .strict()
      .default({ install: true, by: ['qa'], network: true, scripts: false, registries: { npm: null, pip: null } }),
  })
  .strict()
  .superRefine((policy, ctx) => {
    if (policy.dependencies.network && !policy.dependencies.install) {
      ctx.addIssue({
        code: 'custom',
        path: ['dependencies', 'network'],
        message: 'network only applies to a dependency install: set install: true, or remove network',
      });
    }
  });

export type RolePolicy = z.infer<typeof RolePolicy>;
export type PolicyFile = z.infer<typeof PolicyFile>;

/** A policy and where it came from, for messages ("sops/policy.yaml", or "the default policy"). */
export interface Policy extends PolicyFile {
  source: string;
}

/** Files sopworks itself writes for each role (docs/prd.md by the Product Manager, and so on). README.md is a file of the design like any other: the Engineer's. */
const SOPWORKS_DOCS = ['docs/prd.md', 'docs/design.md', 'docs/tasks.md', 'docs/test-reports/', 'docs/bug-reports/'];
const TEST_FILES = ['test/', 'tests/', '__tests__/', 'spec/', '**/*.test.*', '**/*.spec.*', '**/test_*.py', '**/*_test.py', '**/conftest.py', '**/*_test.go'];

export const DEFAULT_POLICY: Policy = {
  source: 'the default policy (no policy.yaml in the --sops folder)',
  protected: [
    '.git/',
    '.sopworks/',
    '.github/',
    '.gitlab-ci.yml',
    '.circleci/',
    '.travis.yml',
    'azure-pipelines.yml',
    'Jenkinsfile',
    '.ci/',
    '.gitignore',
    '.gitattributes',
    '.gitmodules',
    '.envrc',
  ],
  roles: {
    'product-manager': { write: ['docs/prd.md'], except: [], run: [] },
    architect: { write: ['docs/design.md', 'docs/tasks.md'], except: [], run: [] },
    engineer: { write: ['**'], except: [...SOPWORKS_DOCS, ...TEST_FILES], run: [] },
    qa: {
      // tsd's type tests: QA's as tests, and the Engineer's too, beside the types it edits (a change cannot rewrite one of QA's).
      write: [...TEST_FILES, '**/*.test-d.*', 'docs/test-reports/', 'docs/bug-reports/', 'package-lock.json', 'requirements.lock'],
      except: [],
      run: [
        'node',
        'npm test',
        'npm run test',
        'yarn test',
        'pnpm test',
        'python',
        'python3',
        'pytest',
        'go test',
        'go run',
        'cargo test',
        'cargo run',
        'make test',
        'deno test',
        'bun test',
      ],
    },
  },
  otherRoles: { write: ['docs/'], except: SOPWORKS_DOCS, run: [] },
  dependencies: { install: true, by: ['qa'], network: true, scripts: false, registries: { npm: null, pip: null } },
};
