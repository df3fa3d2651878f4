/** Where a run keeps its state, inside its project folder: the board, the exchange log, the roles' states, run.json, the lock. */
export const STATE_DIR = '.sopworks';
