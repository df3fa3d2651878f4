/**
 * A model per role: the provider the gateway is given when roles have models of their own or fallbacks.
 * It only routes — each route is an ordinary provider (one ChatOpenAI client per distinct endpoint and
 * model); the gateway walks a role's chain when a call fails for a reason another model could avoid.
 */
import type { Completion, CompletionRequest, ModelRoute, Provider } from '../provider.ts';

export class RoutedProvider implements Provider {
  constructor(
    readonly label: string,
    private readonly chains: Readonly<Record<string, readonly ModelRoute[]>>,
    private readonly others: readonly ModelRoute[],
  ) {
    if (others.length === 0) throw new Error('RoutedProvider needs a model for the roles without one of their own');
  }

  chainFor(role: string): readonly ModelRoute[] {
    return this.chains[role] ?? this.others;
  }

  /** Every model the run may ask, once each. */
  routes(): ModelRoute[] {
    return [...new Set([...Object.values(this.chains).flat(), ...this.others])];
  }

  complete(request: CompletionRequest): Promise<Completion> {
    return this.chainFor(request.call.role)[0]!.provider.complete(request);
  }
}
