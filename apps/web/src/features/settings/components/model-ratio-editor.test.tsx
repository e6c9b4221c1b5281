import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import { ModelRatioJsonEditor } from './model-ratio-editor';
import { ModelRatioVisualEditor } from './model-ratio-visual-editor';
import { ModelsWithoutRatio } from './models-without-ratio';
import { OptionsBoundary } from './options-boundary';
import { fastUser, optionServer } from './test-options';

type User = ReturnType<typeof renderWithProviders>['user'];

const rowOf = (name: string) => screen.getByText(name, { selector: 'td span' }).closest('tr') as HTMLElement;
const cellInput = (name: string, column: string) => screen.getByLabelText(`${name} ${column}`);
const select = (user: User, name: string) =>
  user.click(rowOf(name).querySelector('input[type="checkbox"]') as HTMLElement);
const button = (text: RegExp) => screen.getByText(text, { selector: 'button span' });
const putBodies = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.calls('PUT /api/option/').map((request) => request.body as { key: string; value: string });

function renderVisual(overrides: Record<string, string> = {}) {
  const server = optionServer(overrides);
  const fetch = mockFetch(server.routes);
  const rendered = renderWithProviders(
    <OptionsBoundary>{(options) => <ModelRatioVisualEditor options={options} />}</OptionsBoundary>,
    { user: adminUser },
  );
  return { ...rendered, fetch, server };
}

async function openBatch(user: User) {
  await user.click(button(/^批量设置$/));
  await waitFor(() => expect(document.querySelector('.ant-modal')).not.toBeNull());
  return document.querySelector('.ant-modal') as HTMLElement;
}

describe('visual ratio editor', () => {
  it('disables the ratio fields of a row with a fixed price', async () => {
    const user = fastUser();
    renderVisual();
    await screen.findByText('mj_imagine');
    expect(cellInput('mj_imagine', '模型倍率')).toBeDisabled();
    expect(cellInput('mj_imagine', '补全倍率')).toBeDisabled();
    expect(cellInput('gpt-4o', '模型倍率')).toBeEnabled();

    await user.type(cellInput('gpt-4o', '固定价格'), '0.02');
    expect(cellInput('gpt-4o', '模型倍率')).toBeDisabled();
    expect(cellInput('gpt-4o', '补全倍率')).toBeDisabled();
    await user.clear(cellInput('gpt-4o', '固定价格'));
    expect(cellInput('gpt-4o', '模型倍率')).toBeEnabled();
  });

  it('accepts numbers only', async () => {
    const user = fastUser();
    renderVisual();
    await screen.findByText('gpt-4o');
    await user.type(cellInput('gpt-4o', '模型倍率'), 'x');
    await screen.findByText('请输入数字');
    expect(cellInput('gpt-4o', '模型倍率')).toHaveValue('1.25');
  });

  it('refuses a duplicate model name and adds a new one', async () => {
    const user = fastUser();
    renderVisual();
    await screen.findByText('gpt-4o');
    await user.click(button(/^添加模型$/));
    const name = await screen.findByPlaceholderText('gpt-4o-mini');
    await user.type(name, 'gpt-4o');
    await user.click(screen.getByText(/^确\s*定$/, { selector: '.ant-modal button span' }));
    await screen.findByText('模型名称已存在');

    await user.clear(name);
    await user.type(name, 'brand-new');
    await user.type(screen.getByLabelText('模型倍率', { selector: '#add-model_ratio' }), '3');
    await user.click(screen.getByText(/^确\s*定$/, { selector: '.ant-modal button span' }));
    await screen.findByText('brand-new');
    expect(cellInput('brand-new', '模型倍率')).toHaveValue('3');

    await user.click(screen.getByLabelText('删除 brand-new'));
    expect(screen.queryByText('brand-new', { selector: 'td span' })).toBeNull();
  });

  it('needs selected models and both values for bothRatio', async () => {
    const user = fastUser();
    renderVisual();
    await screen.findByText('gpt-4o');
    await user.click(button(/^批量设置$/));
    await screen.findByText('请先选择需要批量设置的模型');

    await select(user, 'gpt-4o');
    await select(user, 'mj_imagine');
    const modal = await openBatch(user);
    expect(modal).toHaveTextContent('已选择 2 个模型');
    await user.click(within(modal).getByLabelText('模型倍率和补全倍率'));
    await user.type(within(modal).getByLabelText('模型倍率', { selector: '#batch-value' }), '2');
    await user.click(within(modal).getByText(/^应\s*用$/));
    await screen.findByText('请同时输入模型倍率和补全倍率');
    expect(cellInput('gpt-4o', '模型倍率')).toHaveValue('1.25');

    await user.type(within(modal).getByLabelText('补全倍率', { selector: '#batch-completion-value' }), '3');
    await user.click(within(modal).getByText(/^应\s*用$/));
    await waitFor(() => expect(cellInput('mj_imagine', '模型倍率')).toHaveValue('2'));
    // The ratios replace the fixed price.
    expect(cellInput('mj_imagine', '固定价格')).toHaveValue('');
    expect(cellInput('mj_imagine', '补全倍率')).toHaveValue('3');
    expect(cellInput('gpt-4o', '补全倍率')).toHaveValue('3');
  });

  it('saves only the pricing options that changed', async () => {
    const user = fastUser();
    const { fetch } = renderVisual();
    await screen.findByText('gpt-4o');
    await user.click(button(/^应用更改$/));
    await screen.findByText('你似乎并没有修改什么');

    await user.clear(cellInput('gpt-4o', '模型倍率'));
    await user.type(cellInput('gpt-4o', '模型倍率'), '2');
    await user.click(button(/^应用更改$/));
    await screen.findByText('保存成功');
    const bodies = putBodies(fetch);
    expect(bodies.map((body) => body.key)).toEqual(['ModelRatio']);
    expect(JSON.parse(bodies[0]?.value ?? '{}')).toEqual({ 'gpt-4o': 2, 'claude-3-haiku': 0.125 });
  });

  it('pages the rows by 10', async () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`model-${index + 10}`, 1]));
    renderVisual({ ModelRatio: JSON.stringify(many), ModelPrice: '{}', CompletionRatio: '{}' });
    await screen.findByText('model-10');
    expect(screen.queryByText('model-20')).toBeNull();
    expect(screen.getByText('共 12 个模型')).toBeInTheDocument();
    expect(document.querySelectorAll('.ant-table-tbody tr.ant-table-row')).toHaveLength(10);
  });
});

describe('models without a ratio', () => {
  it('lists enabled models with neither price nor ratio and prices them in a batch', async () => {
    const server = optionServer();
    const fetch = mockFetch({
      ...server.routes,
      'GET /api/channel/models_enabled': {
        body: { success: true, message: '', data: ['gpt-4o', 'mj_imagine', 'new-a', 'new-b'] },
      },
    });
    const user = fastUser();
    renderWithProviders(
      <OptionsBoundary>{(options) => <ModelsWithoutRatio options={options} />}</OptionsBoundary>,
      { user: adminUser },
    );
    await screen.findByText('new-a');
    expect(screen.getByText('new-b')).toBeInTheDocument();
    expect(screen.queryByText('gpt-4o')).toBeNull();
    expect(screen.queryByText('mj_imagine')).toBeNull();

    await select(user, 'new-a');
    await select(user, 'new-b');
    const modal = await openBatch(user);
    await user.click(within(modal).getByLabelText('模型倍率', { selector: 'input[type="radio"]' }));
    await user.type(within(modal).getByLabelText('模型倍率', { selector: '#batch-value' }), '0.5');
    await user.click(within(modal).getByText(/^应\s*用$/));
    await waitFor(() => expect(cellInput('new-b', '模型倍率')).toHaveValue('0.5'));
    await user.click(button(/^应用更改$/));
    await screen.findByText('保存成功');
    const bodies = putBodies(fetch);
    expect(bodies.map((body) => body.key)).toEqual(['ModelRatio']);
    expect(JSON.parse(bodies[0]?.value ?? '{}')).toEqual({
      'gpt-4o': 1.25,
      'claude-3-haiku': 0.125,
      'new-a': 0.5,
      'new-b': 0.5,
    });
    await screen.findByText('所有模型都已设置价格或倍率');
  });
});

describe('model ratio JSON editor', () => {
  it('validates the JSON maps and resets the model ratios', async () => {
    const server = optionServer();
    const fetch = mockFetch({
      ...server.routes,
      'POST /api/option/rest_model_ratio': {
        body: { success: true, message: '重置模型倍率成功', data: null },
      },
    });
    const user = fastUser();
    renderWithProviders(
      <OptionsBoundary>{(options) => <ModelRatioJsonEditor options={options} />}</OptionsBoundary>,
      { user: adminUser },
    );
    const price = await screen.findByLabelText('模型固定价格');
    expect(price).toHaveValue('{\n  "mj_imagine": 0.1\n}');
    await user.clear(price);
    await user.paste('{"mj_imagine": ');
    await user.click(button(/^保\s*存$/));
    await screen.findByText('不是合法的 JSON 字符串');
    expect(fetch.calls('PUT /api/option/')).toHaveLength(0);

    await user.click(button(/^重置模型倍率$/));
    await screen.findByText(/重置为内置模型目录的默认值/);
    await user.click(await screen.findByText(/^确\s*定$/, { selector: '.ant-popconfirm button span' }));
    await screen.findByText('重置模型倍率成功');
    expect(fetch.calls('POST /api/option/rest_model_ratio')).toHaveLength(1);
  });
});
