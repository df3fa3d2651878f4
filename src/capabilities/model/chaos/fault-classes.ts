/**
 * Every way the chaos layer spoils a reply, with what the gateway must make of it: `accepted` (the
 * meaning is kept, the same artifact must come out), `reasked` (the meaning is lost or uncertain, the
 * model must be asked again) or `retried` (a server fault the transport sends the request again for).
 * The classes are those the parsers and the repair code know, from real replies (docs/eval.md, Chaos).
 */

import type { CleanReply } from './clean-reply.ts';
import type { Draws } from './draws.ts';
import type { SpoiledText } from './spoil-any.ts';
import * as any from './spoil-any.ts';
import * as code from './spoil-code.ts';
import * as json from './spoil-json.ts';
import * as transport from './transport-faults.ts';

type Kind = CleanReply['kind'];

export type FaultClass =
  | { id: string; expect: 'accepted' | 'reasked'; kinds: readonly Kind[]; spoil: (reply: CleanReply, draws: Draws) => SpoiledText | null }
  | { id: string; expect: 'retried'; kinds: readonly Kind[]; error: transport.TransportFault };

const ALL: readonly Kind[] = ['json', 'code', 'files', 'edits', 'text'];

const onJson =
  (spoiler: json.JsonSpoiler) =>
  (reply: CleanReply, draws: Draws): SpoiledText | null => {
    if (reply.kind !== 'json') return null;
    const text = spoiler(reply, draws);
    return text === null ? null : { text };
  };

const onCode =
  (spoiler: code.CodeSpoiler) =>
  (reply: CleanReply, draws: Draws): SpoiledText | null => {
    if (reply.kind !== 'code' && reply.kind !== 'files') return null;
    const text = spoiler(reply, draws);
    return text === null ? null : { text };
  };

export const FAULT_CLASSES: readonly FaultClass[] = [
  // The meaning kept: the same artifact must come out.
  { id: 'json-in-prose', expect: 'accepted', kinds: ['json'], spoil: onJson(json.jsonInProse) },
  { id: 'json-wrong-fence', expect: 'accepted', kinds: ['json'], spoil: onJson(json.jsonWrongFence) },
  { id: 'trailing-commas', expect: 'accepted', kinds: ['json'], spoil: onJson(json.trailingCommas) },
  { id: 'json-comments', expect: 'accepted', kinds: ['json'], spoil: onJson(json.jsonComments) },
  { id: 'single-quotes', expect: 'accepted', kinds: ['json'], spoil: onJson(json.pythonQuoting) },
  { id: 'key-case', expect: 'accepted', kinds: ['json'], spoil: onJson(json.keyCase) },
  { id: 'wrapping-key', expect: 'accepted', kinds: ['json'], spoil: onJson(json.wrappingKey) },
  { id: 'bare-list', expect: 'accepted', kinds: ['json'], spoil: onJson(json.bareList) },
  { id: 'think-block', expect: 'accepted', kinds: ALL, spoil: any.thinkBlock },
  { id: 'label-style', expect: 'accepted', kinds: ['code', 'files'], spoil: onCode(code.labelStyle) },
  { id: 'other-fence', expect: 'accepted', kinds: ['code', 'files'], spoil: onCode(code.otherFence) },
  { id: 'prose-around-code', expect: 'accepted', kinds: ['code', 'files'], spoil: onCode(code.proseAroundCode) },
  { id: 'shell-command-beside', expect: 'accepted', kinds: ['code', 'files'], spoil: onCode(code.shellCommandBeside) },
  { id: 'open-fence-before-next-file', expect: 'accepted', kinds: ['files'], spoil: onCode(code.openFenceBeforeNextFile) },
  { id: 'prose-before-edits', expect: 'accepted', kinds: ['edits'], spoil: any.proseBeforeEdits },
  // The meaning lost or uncertain: re-asked, never guessed.
  { id: 'cut-off', expect: 'reasked', kinds: ALL, spoil: any.cutOff },
  { id: 'refusal', expect: 'reasked', kinds: ALL, spoil: any.refusal },
  { id: 'empty', expect: 'reasked', kinds: ALL, spoil: any.emptyReply },
  { id: 'missing-field', expect: 'reasked', kinds: ['json'], spoil: onJson(json.missingField) },
  { id: 'two-answers', expect: 'reasked', kinds: ['json'], spoil: onJson(json.twoAnswers) },
  { id: 'two-versions', expect: 'reasked', kinds: ['code', 'files'], spoil: onCode(code.twoVersions) },
  { id: 'open-fence-at-end', expect: 'reasked', kinds: ['code', 'files'], spoil: onCode(code.openFenceAtEnd) },
  { id: 'elided-code', expect: 'reasked', kinds: ['code', 'files'], spoil: onCode(code.elidedCode) },
  { id: 'path-outside', expect: 'reasked', kinds: ['code', 'files'], spoil: onCode(code.pathOutside) },
  // Server faults: the transport retries, the reply is the real one.
  { id: 'rate-limit-429', expect: 'retried', kinds: ALL, error: transport.rateLimited },
  { id: 'server-5xx', expect: 'retried', kinds: ALL, error: transport.serverError },
  { id: 'connection-reset', expect: 'retried', kinds: ALL, error: transport.connectionReset },
  { id: 'proxy-error-page', expect: 'retried', kinds: ALL, error: transport.proxyErrorPage },
];
