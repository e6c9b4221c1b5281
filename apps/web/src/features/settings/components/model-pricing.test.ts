import { describe, expect, it } from 'vitest';
import {
  applyBatch,
  checkBatch,
  isNumericInput,
  mapsFromRows,
  parsePricingMaps,
  pricingChanges,
  rowsFromMaps,
} from './model-pricing';
import { collectChanges, type OptionFieldSpec, removeTrailingSlash } from './option-fields';

describe('model pricing helpers', () => {
  const maps = parsePricingMaps({
    ModelPrice: '{"mj": 0.1}',
    ModelRatio: '{"gpt": 1.5, "mj": 9}',
    CompletionRatio: '{"gpt": 4}',
  });

  it('builds rows and writes a fixed price instead of the ratios', () => {
    const rows = rowsFromMaps(maps);
    expect(rows).toEqual([
      { name: 'gpt', price: '', ratio: '1.5', completionRatio: '4' },
      { name: 'mj', price: '0.1', ratio: '9', completionRatio: '' },
    ]);
    expect(mapsFromRows(rows)).toEqual({
      ModelPrice: { mj: 0.1 },
      ModelRatio: { gpt: 1.5 },
      CompletionRatio: { gpt: 4 },
    });
  });

  it('lists only the changed pricing options', () => {
    const after = mapsFromRows(rowsFromMaps(maps));
    expect(pricingChanges(after, after)).toEqual([]);
    const changed = pricingChanges(after, { ...after, ModelRatio: { gpt: 2 } });
    expect(changed.map((change) => change.key)).toEqual(['ModelRatio']);
    expect(JSON.parse(changed[0]?.value ?? '')).toEqual({ gpt: 2 });
  });

  it('accepts numbers only', () => {
    expect(isNumericInput('')).toBe(true);
    expect(isNumericInput('1.')).toBe(true);
    expect(isNumericInput('0.25')).toBe(true);
    expect(isNumericInput('-1')).toBe(false);
    expect(isNumericInput('1e3')).toBe(false);
    expect(isNumericInput('abc')).toBe(false);
  });

  it('checks batches: selection, numbers, both values for bothRatio', () => {
    expect(checkBatch(0, { type: 'price', value: '1', completionValue: '' })).toBe('ratio.batch.noSelection');
    expect(checkBatch(1, { type: 'ratio', value: 'x', completionValue: '' })).toBe(
      'ratio.batch.invalidNumber',
    );
    expect(checkBatch(1, { type: 'bothRatio', value: '1', completionValue: '' })).toBe(
      'ratio.batch.bothRequired',
    );
    expect(checkBatch(1, { type: 'bothRatio', value: '1', completionValue: '2' })).toBeNull();
  });

  it('applies batches to the selected rows only', () => {
    const rows = rowsFromMaps(maps);
    const priced = applyBatch(rows, new Set(['gpt']), { type: 'price', value: '0.5', completionValue: '' });
    expect(priced[0]?.price).toBe('0.5');
    expect(priced[1]).toBe(rows[1]);
    const both = applyBatch(rows, new Set(['mj']), { type: 'bothRatio', value: '2', completionValue: '3' });
    expect(both[1]).toEqual({ name: 'mj', price: '', ratio: '2', completionRatio: '3' });
  });
});

describe('option field helpers', () => {
  const fields: OptionFieldSpec[] = [
    { key: 'ServerAddress', kind: 'address', label: '' },
    { key: 'SMTPToken', kind: 'secret', label: '' },
    { key: 'SMTPSSLEnabled', kind: 'switch', label: '' },
    { key: 'SMTPPort', kind: 'number', label: '' },
    { key: 'EmailDomainWhitelist', kind: 'tags', label: '' },
    { key: 'GroupRatio', kind: 'json', label: '' },
  ];
  const stored = {
    ServerAddress: 'https://a.example',
    SMTPSSLEnabled: 'false',
    SMTPPort: '587',
    EmailDomainWhitelist: 'a.com,b.com',
    GroupRatio: '{"default":1}',
  };

  it('removes trailing slashes', () => {
    expect(removeTrailingSlash(' https://a.example/// ')).toBe('https://a.example');
  });

  it('finds no change in untouched values (pretty JSON included) and keeps secrets unless typed', () => {
    const values = {
      ServerAddress: 'https://a.example/',
      SMTPToken: '',
      SMTPSSLEnabled: false,
      SMTPPort: 587,
      EmailDomainWhitelist: ['a.com', 'b.com'],
      GroupRatio: '{\n  "default": 1\n}',
    };
    expect(collectChanges(fields, stored, values)).toEqual([]);
    expect(
      collectChanges(fields, stored, {
        ...values,
        SMTPToken: 'tok',
        SMTPSSLEnabled: true,
        EmailDomainWhitelist: ['a.com'],
      }),
    ).toEqual([
      { key: 'SMTPToken', value: 'tok' },
      { key: 'SMTPSSLEnabled', value: 'true' },
      { key: 'EmailDomainWhitelist', value: 'a.com' },
    ]);
  });
});
