/**
 * The schema of SOP files: XState's JSON machine shape, restricted to what a SOP needs, with every
 * action, guard and actor named from the vocabulary (src/engine/steps/vocabulary.ts).
 */
import { z } from 'zod';

const Params = z.record(z.string(), z.unknown());
const Ref = z.union([z.string().min(1), z.object({ type: z.string().min(1), params: Params.optional() }).strict()]);
const Actions = z.union([Ref, z.array(Ref)]);

const TransitionObject = z
  .object({
    target: z.string().min(1).optional(),
    guard: Ref.optional(),
    actions: Actions.optional(),
    description: z.string().optional(),
    reenter: z.boolean().optional(),
  })
  .strict();
const Transition = z.union([z.string().min(1), TransitionObject]);
const Transitions = z.union([Transition, z.array(Transition)]);

const Invoke = z
  .object({
    id: z.string().min(1).optional(),
    src: z.string().min(1),
    /** The step's parameters, validated against the actor's parameter schema. */
    input: Params.optional(),
    onDone: Transitions.optional(),
    onError: Transitions.optional(),
  })
  .strict();

export interface StateNodeConfig {
  description?: string;
  type?: 'atomic' | 'compound' | 'parallel' | 'final';
  initial?: string;
  states?: Record<string, StateNodeConfig>;
  on?: Record<string, z.infer<typeof Transitions>>;
  always?: z.infer<typeof Transitions>;
  invoke?: z.infer<typeof Invoke> | z.infer<typeof Invoke>[];
  entry?: z.infer<typeof Actions>;
  exit?: z.infer<typeof Actions>;
  tags?: string[];
}

export const StateNode: z.ZodType<StateNodeConfig> = z.lazy(() =>
  z
    .object({
      description: z.string().optional(),
      type: z.enum(['atomic', 'compound', 'parallel', 'final']).optional(),
      initial: z.string().min(1).optional(),
      states: z.record(z.string(), StateNode).optional(),
      on: z.record(z.string(), Transitions).optional(),
      always: Transitions.optional(),
      invoke: z.union([Invoke, z.array(Invoke)]).optional(),
      entry: Actions.optional(),
      exit: Actions.optional(),
      tags: z.array(z.string()).optional(),
    })
    .strict(),
);

export const SopFile = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'use lower-case letters, digits and dashes'),
    description: z.string().optional(),
    initial: z.string().min(1),
    states: z.record(z.string(), StateNode),
  })
  .strict();

export type SopFile = z.infer<typeof SopFile>;

/** A role's settings in company.yaml: names its SOPs' `setting` guards read, each a yes/no, a number or a word. */
export const RoleSettings = z.record(
  z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/, 'a setting is named in letters and digits, e.g. selfReview'),
  z.union([z.boolean(), z.number(), z.string()], { error: 'a setting is true or false, a number or a word, e.g. selfReview: false' }),
);
export type RoleSettings = z.infer<typeof RoleSettings>;

/** company.yaml; `roleModel`: the shape of a role's `model` (its model and fallbacks: src/capabilities/model/role-model.ts). */
export const companyFileSchema = (roleModel: z.ZodType = z.unknown()) =>
  z
    .object({
      name: z.string().min(1).optional(),
      description: z.string().optional(),
      roles: z
        .array(
          z
            .object({
              id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'use lower-case letters, digits and dashes'),
              /** SOP file name in the sops folder; defaults to <id>.yaml. */
              sop: z.string().min(1).optional(),
              /** The role's profile in its roles/<id>/ folder (who it is, rendered into its system prompt); defaults to role.yaml. */
              profile: z
                .string()
                .regex(/^[\w.-]+\.ya?ml$/, "a YAML file name in the role's folder, e.g. change.yaml")
                .optional(),
              /** Message types delivered to this role. */
              watches: z.array(z.string().min(1)).min(1),
              /** The model this role asks, and its fallbacks; the run's model otherwise. */
              model: roleModel.optional(),
              /** Named values the role's SOPs read with the `setting` guard (`selfReview: false`, say). */
              settings: RoleSettings.optional(),
            })
            .strict(),
        )
        .min(1),
    })
    .strict();

export type CompanyFile = z.infer<ReturnType<typeof companyFileSchema>>;
