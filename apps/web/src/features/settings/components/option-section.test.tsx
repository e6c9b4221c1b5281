import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, mockFetch, ok } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import { ModelSettingsPage } from '../pages/model-settings-page';
import { RateLimitSettingsPage } from '../pages/ratelimit-settings-page';
import { fastUser, optionEntries } from './test-options';

// Text queries: role queries are slow on antd forms in jsdom.
const saveButton = () => screen.getByText(/^保\s*存$/);

async function typeNumber(
  user: ReturnType<typeof renderWithProviders>['user'],
  label: string,
  value: string,
) {
  const input = await screen.findByLabelText(label);
  await user.clear(input);
  await user.paste(value);
}

describe('option sections', () => {
  it('saves only the changed options, each with its own PUT, booleans as strings', async () => {
    const fetch = mockFetch({
      'GET /api/option/': ok(optionEntries()),
      'PUT /api/option/': ok(),
      'GET /api/status': ok({ system_name: 'Switchyard' }),
    });
    const user = fastUser();
    renderWithProviders(<RateLimitSettingsPage />, { user: adminUser });
    await typeNumber(user, '限制周期（分钟）', '2');
    await user.click(screen.getByLabelText('启用用户模型请求速率限制'));
    await user.click(saveButton());
    await screen.findByText('保存成功');
    const bodies = fetch.calls('PUT /api/option/').map((request) => request.body);
    expect(bodies).toHaveLength(2);
    expect(bodies).toEqual(
      expect.arrayContaining([
        { key: 'ModelRequestRateLimitDurationMinutes', value: '2' },
        { key: 'ModelRequestRateLimitEnabled', value: 'true' },
      ]),
    );
    // Values go before switches (the server checks a switch's prerequisites).
    expect(bodies[1]).toEqual({ key: 'ModelRequestRateLimitEnabled', value: 'true' });
    // The options and the public status are reloaded for the shell.
    await waitFor(() => expect(fetch.calls('GET /api/status')).toHaveLength(1));
    await waitFor(() => expect(fetch.calls('GET /api/option/')).toHaveLength(2));
  });

  it('says nothing changed and sends nothing when the form is untouched', async () => {
    const fetch = mockFetch({ 'GET /api/option/': ok(optionEntries()), 'PUT /api/option/': ok() });
    const user = fastUser();
    renderWithProviders(<RateLimitSettingsPage />, { user: adminUser });
    await screen.findByLabelText('限制周期（分钟）');
    await user.click(saveButton());
    await screen.findByText('你似乎并没有修改什么');
    expect(fetch.calls('PUT /api/option/')).toHaveLength(0);
  });

  it('reports a partial failure with the server reason', async () => {
    mockFetch({
      'GET /api/option/': ok(optionEntries()),
      'PUT /api/option/': (request) =>
        (request.body as { key: string }).key === 'ModelRequestRateLimitCount'
          ? fail('配置项 ModelRequestRateLimitCount 的值过大')
          : ok(),
      'GET /api/status': ok({}),
    });
    const user = fastUser();
    renderWithProviders(<RateLimitSettingsPage />, { user: adminUser });
    await typeNumber(user, '限制周期（分钟）', '3');
    await typeNumber(user, '用户每周期最多请求次数', '50');
    await user.click(saveButton());
    await screen.findByText('部分保存失败，请重试');
    expect(screen.getByText('配置项 ModelRequestRateLimitCount 的值过大')).toBeInTheDocument();
    // The failed field keeps what was typed.
    expect(screen.getByLabelText('用户每周期最多请求次数')).toHaveValue('50');
  });

  it('reports a complete failure', async () => {
    mockFetch({ 'GET /api/option/': ok(optionEntries()), 'PUT /api/option/': fail('nope') });
    const user = fastUser();
    renderWithProviders(<RateLimitSettingsPage />, { user: adminUser });
    await typeNumber(user, '限制周期（分钟）', '3');
    await user.click(saveButton());
    await screen.findByText('保存失败，请重试');
  });

  it('enforces numeric minimums in the form', async () => {
    const fetch = mockFetch({ 'GET /api/option/': ok(optionEntries()), 'PUT /api/option/': ok() });
    const user = fastUser();
    renderWithProviders(<RateLimitSettingsPage />, { user: adminUser });
    await typeNumber(user, '用户每周期最多请求完成次数', '0');
    await user.click(saveButton());
    await screen.findByText('不能小于 1');
    expect(fetch.calls('PUT /api/option/')).toHaveLength(0);
  });

  it("says '刷新失败' when the options cannot be loaded", async () => {
    mockFetch({ 'GET /api/option/': fail('无权进行此操作，权限不足') });
    renderWithProviders(<RateLimitSettingsPage />, { user: adminUser });
    expect(await screen.findAllByText('刷新失败')).not.toHaveLength(0);
    expect(screen.getByRole('button', { name: /重\s*试/ })).toBeInTheDocument();
  });

  it('refuses invalid JSON before saving', async () => {
    const fetch = mockFetch({ 'GET /api/option/': ok(optionEntries()), 'PUT /api/option/': ok() });
    const user = fastUser();
    renderWithProviders(<ModelSettingsPage />, { user: adminUser });
    const safety = await screen.findByLabelText('Gemini 安全设置');
    await user.clear(safety);
    await user.paste('{"default": "OFF"');
    const gemini = screen.getByTestId('settings-section-gemini');
    await user.click(within(gemini).getByText(/^保\s*存$/));
    await screen.findByText('不是合法的 JSON 字符串');
    expect(screen.getByText('请检查输入')).toBeInTheDocument();
    expect(fetch.calls('PUT /api/option/')).toHaveLength(0);
  });

  it('saves a changed JSON field and the Claude budget within 0.1 to 1', async () => {
    const fetch = mockFetch({
      'GET /api/option/': ok(optionEntries()),
      'PUT /api/option/': ok(),
      'GET /api/status': ok({}),
    });
    const user = fastUser();
    renderWithProviders(<ModelSettingsPage />, { user: adminUser });
    const claude = await screen.findByTestId('settings-section-claude');
    await typeNumber(user, '思考适配 BudgetTokens 百分比', '1.5');
    await user.click(within(claude).getByText(/^保\s*存$/));
    await screen.findByText('取值范围为 0.1 ~ 1');
    await typeNumber(user, '思考适配 BudgetTokens 百分比', '0.5');
    const tokens = screen.getByLabelText('缺省 MaxTokens');
    await user.clear(tokens);
    await user.paste('{"default": 4096}');
    await user.click(within(claude).getByText(/^保\s*存$/));
    await screen.findByText('保存成功');
    expect(fetch.calls('PUT /api/option/').map((request) => request.body)).toEqual([
      { key: 'claude.default_max_tokens', value: '{"default": 4096}' },
      { key: 'claude.thinking_adapter_budget_tokens_percentage', value: '0.5' },
    ]);
  });
});
