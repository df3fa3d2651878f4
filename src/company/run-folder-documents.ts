/**
 * A run's own documents that are not committed (a change's change request, design, tasks, test and bug
 * reports, unless `sopworks change --commit-documents`), written where a person finds them — the run folder's
 * `.sopworks/documents/`, by their path under the change's folder (`change-request.md`,
 * `test-reports/round-2.md`), the latest version of each. Rendered from the board, so a resumed run
 * writes the same; never through a link.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { committed } from '../capabilities/repository/index.ts';
import { documentsDir } from '../documents/index.ts';
import type { MessageBoard } from '../engine/board/index.ts';
import { STATE_DIR } from '../engine/run/index.ts';
import { writeNoFollow } from '../ground/files/index.ts';

export const DOCUMENTS_DIR = 'documents';

/** Writes them, and returns their paths relative to the project folder (empty when every document was committed). */
export async function writeRunFolderDocuments(board: MessageBoard, projectDir: string): Promise<string[]> {
  const files = new Map<string, string>();
  // Under the change's folder as the run ended (the map that names it is itself one of the documents).
  const under = `${documentsDir(board)}/`;
  for (const message of board.list()) {
    const type = board.types[message.type];
    if (!type?.files || committed(board, message)) continue;
    for (const file of type.files(message.payload, board.before(message.seq))) {
      files.set(file.path.startsWith(under) ? file.path.slice(under.length) : file.path, file.content);
    }
  }
  if (files.size === 0) return [];
  // The folder is sopworks' own (made here, never a link); what is under it is written without following any.
  const folder = path.join(projectDir, STATE_DIR, DOCUMENTS_DIR);
  await fs.mkdir(folder, { recursive: true });
  if ((await fs.lstat(folder)).isSymbolicLink()) throw new Error(`${folder} is a symbolic link`);
  const written: string[] = [];
  for (const [file, content] of files) {
    const refused = await writeNoFollow(folder, file, content);
    if (refused !== null) throw new Error(`${file}: ${refused}`);
    written.push(path.posix.join(STATE_DIR, DOCUMENTS_DIR, file));
  }
  return written.sort();
}
