/**
 * Spread into a table's last column (row actions, or a list's detail) so it stays in sight at
 * laptop widths: the column is fixed on the right edge and the others scroll under it. The table
 * needs `scroll={{ x: 'max-content' }}`, as every list has. One rule for every list of the console.
 */
export const PINNED_RIGHT = { fixed: 'right' } as const;
