import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, neutraliseFormula } from './csv-cell.ts';

describe('csvCell', () => {
  it('leaves plain text, numbers and flags as they are', () => {
    expect(csvCell('gpt-4o')).toBe('gpt-4o');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(-42)).toBe('-42');
    expect(csvCell(1_700_000_000)).toBe('1700000000');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(false)).toBe('false');
  });

  it('writes null, undefined and empty text as empty fields', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('quotes commas, quotes and CR/LF, doubling the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('"')).toBe('""""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('line1\r\nline2')).toBe('"line1\r\nline2"');
    expect(csvCell('cr\ronly')).toBe('"cr\ronly"');
  });

  it('quotes leading and trailing whitespace so readers that trim keep it', () => {
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell('trailing ')).toBe('"trailing "');
    expect(csvCell('inner space')).toBe('inner space');
  });

  it('keeps CJK text, emoji and surrogate pairs unchanged', () => {
    expect(csvCell('模型倍率 1.00，分组倍率 1')).toBe('模型倍率 1.00，分组倍率 1');
    expect(csvCell('😀👍🏽')).toBe('😀👍🏽');
    expect(csvCell('𠮷野家')).toBe('𠮷野家');
    expect(csvCell('测试,"引号"')).toBe('"测试,""引号"""');
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+SUM(A1:A9)')).toBe("'+SUM(A1:A9)");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('=cmd|"/c calc"!A1,')).toBe('"\'=cmd|""/c calc""!A1,"');
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('  =1')).toBe("'  =1");
    // Only a leading trigger counts; numbers are the gateway's own and stay numbers.
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('user@example.com')).toBe('user@example.com');
    expect(csvCell(-5)).toBe('-5');
    expect(neutraliseFormula('-')).toBe("'-");
  });
});

describe('csvLine', () => {
  it('joins cells with commas and ends with CRLF', () => {
    expect(csvLine(['a', 1, null, 'b,c', true])).toBe('a,1,,"b,c",true\r\n');
    expect(csvLine([])).toBe('\r\n');
    expect(csvLine([''])).toBe('\r\n');
  });

  it('encodes a lone surrogate as U+FFFD and keeps pairs in UTF-8', () => {
    const bytes = Buffer.from(csvLine(['\uD83D', '😀']), 'utf8');
    expect(bytes.toString('utf8')).toBe('\uFFFD,😀\r\n');
    expect([...bytes.subarray(4, 8)]).toEqual([0xf0, 0x9f, 0x98, 0x80]);
  });
});
