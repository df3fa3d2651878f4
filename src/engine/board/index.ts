/** engine/board: its public face — what other folders may use of it. */

export { type Draft, Envelope, type Message } from './message.ts';
export { MessageBoard } from './message-board.ts';
export { type BoardReader, defineMessage, type MessageType, type MessageTypes, oneDocument, type ProjectFile } from './message-type.ts';
export { ownRecordLine } from './own-record-line.ts';
export { Outcome, Requirement, runMessages } from './run-messages.ts';
