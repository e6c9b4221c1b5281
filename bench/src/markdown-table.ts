/** A Markdown table, columns padded; every column but the first right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) =>
    Math.max(cell.length, 3, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[], right: boolean) =>
    `| ${cells.map((cell, i) => (right && i > 0 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `| ${widths.map((width, i) => (i === 0 ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`)).join(' | ')} |`;
  return [line(header, true), rule, ...rows.map((row) => line(row, true))].join('\n');
}
