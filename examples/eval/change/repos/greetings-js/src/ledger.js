// Totals of a ledger.
export function ledgerTotal(rows) {
  return rows.reduce((sum, row) => sum + row.amount, 0);
}
