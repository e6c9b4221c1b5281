import {
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  type FormRule,
  Input,
  InputNumber,
  Row,
  Select,
  Switch,
  Typography,
} from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { formatQuota, useQuotaDisplay } from '../../../lib/quota';
import type { OptionMap } from '../api/get-options';
import type { OptionChange } from '../api/update-option';
import {
  buildFormValues,
  collectChanges,
  isValidJson,
  type OptionFieldSpec,
  type OptionFormValues,
  toFormValue,
} from './option-fields';
import { type SaveMessages, useOptionSaver } from './use-option-saver';

export interface OptionSectionProps {
  /** Form name (prefixes the field ids). */
  id: string;
  title: ReactNode;
  description?: ReactNode;
  options: OptionMap;
  fields: OptionFieldSpec[];
  saveLabel?: string;
  messages?: SaveMessages;
  /** Extra check on the changed options before saving; returns a message to refuse. */
  validate?: (changes: OptionChange[]) => string | null;
  /** Content under the fields (e.g. the clear-logs tool). */
  children?: ReactNode;
  /** Buttons next to the save button. */
  actions?: ReactNode;
  /** Render without its own card (inside another card). */
  embedded?: boolean;
}

const COLUMN_SPANS = {
  full: { xs: 24, md: 24, lg: 24 },
  half: { xs: 24, md: 12, lg: 12 },
  third: { xs: 24, md: 12, lg: 8 },
} as const;

function defaultWidth(field: OptionFieldSpec): keyof typeof COLUMN_SPANS {
  if (field.width) return field.width;
  return field.kind === 'textarea' || field.kind === 'json' || field.kind === 'tags' ? 'full' : 'third';
}

/** A switch that asks before being turned off (PasswordLoginEnabled). */
function ConfirmSwitch({
  id,
  checked,
  onChange,
  confirmOff,
}: {
  id?: string;
  checked?: boolean;
  onChange?: (checked: boolean) => void;
  confirmOff?: OptionFieldSpec['confirmOff'];
}) {
  const { modal } = App.useApp();
  return (
    <Switch
      id={id}
      checked={checked === true}
      onChange={(next) => {
        if (!next && confirmOff) {
          void modal.confirm({
            title: confirmOff.title,
            content: confirmOff.content,
            onOk: () => onChange?.(false),
          });
          return;
        }
        onChange?.(next);
      }}
    />
  );
}

/** "≈ $1.00" under a quota amount. */
function QuotaHint({ name, help }: { name: string; help?: string }) {
  const form = Form.useFormInstance();
  const value = Form.useWatch(name, form) as unknown;
  const display = useQuotaDisplay();
  let amount: string | null = null;
  if (typeof value === 'number' && Number.isFinite(value)) {
    const dollars = value / display.quotaPerUnit;
    // Small amounts keep two significant digits instead of showing $0.00.
    amount =
      dollars === 0 || Math.abs(dollars) >= 0.01
        ? formatQuota(value, { displayInCurrency: true, quotaPerUnit: display.quotaPerUnit })
        : `$${Number(dollars.toPrecision(2))}`;
  }
  return (
    <>
      {help ? <div>{help}</div> : null}
      {amount ? <Typography.Text type="secondary">≈ {amount}</Typography.Text> : null}
    </>
  );
}

/** Props antd's Form.Item passes to its control (id, value or checked, onChange, ...). */
type ControlProps = Record<string, unknown>;

function FieldInput({ field, ...control }: { field: OptionFieldSpec } & ControlProps) {
  const { t } = useTranslation('settings');
  switch (field.kind) {
    case 'switch':
      return <ConfirmSwitch {...control} confirmOff={field.confirmOff} />;
    case 'number':
      return (
        // No min/max here: InputNumber would silently clamp what was typed; the form rule
        // below refuses out-of-range values with a message instead.
        <InputNumber
          {...control}
          style={{ width: '100%' }}
          step={field.step}
          precision={field.precision}
          placeholder={field.placeholder}
        />
      );
    case 'secret':
      return (
        <Input.Password
          {...control}
          autoComplete="new-password"
          placeholder={field.placeholder ?? t('secret.placeholder')}
        />
      );
    case 'textarea':
      return <Input.TextArea {...control} rows={field.rows ?? 4} placeholder={field.placeholder} />;
    case 'json':
      return (
        <Input.TextArea
          {...control}
          rows={field.rows ?? 6}
          placeholder={field.placeholder}
          spellCheck={false}
          style={{ fontFamily: 'monospace' }}
        />
      );
    case 'select':
      return <Select {...control} options={field.choices ?? []} placeholder={field.placeholder} />;
    case 'tags':
      return (
        <Select
          {...control}
          mode="tags"
          tokenSeparators={[',', ' ']}
          open={false}
          suffixIcon={null}
          placeholder={field.placeholder}
        />
      );
    default:
      return <Input {...control} placeholder={field.placeholder} />;
  }
}

function useFieldRules(field: OptionFieldSpec): FormRule[] {
  const { t } = useTranslation('settings');
  if (field.kind === 'json') {
    return [
      {
        validator: (_rule, value: unknown) =>
          typeof value === 'string' && isValidJson(value)
            ? Promise.resolve()
            : Promise.reject(new Error(t('messages.invalidJson'))),
      },
    ];
  }
  if (field.kind === 'number') {
    const rangeMessage =
      field.min !== undefined && field.max !== undefined
        ? t('messages.between', { min: field.min, max: field.max })
        : field.min !== undefined
          ? t('messages.atLeast', { min: field.min })
          : t('messages.atMost', { max: field.max });
    return [
      { required: true, message: t('messages.required') },
      { type: 'number', min: field.min, max: field.max, message: rangeMessage },
    ];
  }
  return [];
}

function FieldItem({ field }: { field: OptionFieldSpec }) {
  const rules = useFieldRules(field);
  const extra = field.quota ? <QuotaHint name={field.key} help={field.help} /> : field.help;
  return (
    <Form.Item
      name={field.key}
      label={field.label}
      extra={extra}
      rules={rules}
      valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
    >
      <FieldInput field={field} />
    </Form.Item>
  );
}

/**
 * A card of options saved together: loads its values from the options map, saves only what
 * changed (each option with its own PUT), validates JSON and numeric limits first and reports
 * the outcome with the shared save messages.
 */
export function OptionSection({
  id,
  title,
  description,
  options,
  fields,
  saveLabel,
  messages,
  validate,
  children,
  actions,
  embedded = false,
}: OptionSectionProps) {
  const { t } = useTranslation('settings');
  const [form] = Form.useForm<OptionFormValues>();
  const [initialValues] = useState(() => buildFormValues(fields, options));
  const { save, saving } = useOptionSaver();
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;
  const appliedRef = useRef(options);

  // After a save (or any reload) show the stored values of the options that changed on the
  // server; fields whose save failed keep what the admin typed.
  useEffect(() => {
    const previous = appliedRef.current;
    appliedRef.current = options;
    if (previous === options) return;
    const updates: OptionFormValues = {};
    for (const field of fieldsRef.current) {
      if (options[field.key] !== previous[field.key])
        updates[field.key] = toFormValue(field, options[field.key]);
    }
    if (Object.keys(updates).length > 0) form.setFieldsValue(updates);
  }, [options, form]);

  const onSave = async () => {
    try {
      await form.validateFields();
    } catch {
      notify.error(t('messages.checkInput'));
      return;
    }
    const changes = collectChanges(fields, options, form.getFieldsValue(true) as OptionFormValues);
    if (changes.length === 0) {
      notify.warning(t('messages.nothingChanged'));
      return;
    }
    const problem = validate?.(changes) ?? null;
    if (problem) {
      notify.error(problem);
      return;
    }
    const result = await save(changes, messages);
    const savedSecrets = fields.filter(
      (field) => field.kind === 'secret' && result?.saved.includes(field.key),
    );
    if (savedSecrets.length > 0) {
      form.setFieldsValue(Object.fromEntries(savedSecrets.map((field) => [field.key, ''])));
    }
  };

  const body = (
    <>
      {description ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
          {description}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} name={id} layout="vertical" initialValues={initialValues}>
        <Row gutter={[16, 0]}>
          {fields.map((field) => (
            <Col key={field.key} {...COLUMN_SPANS[defaultWidth(field)]}>
              <FieldItem field={field} />
            </Col>
          ))}
        </Row>
      </Form>
      {children}
      <Flex gap={8} wrap>
        <Button type="primary" loading={saving} onClick={() => void onSave()}>
          {saveLabel ?? t('actions.save')}
        </Button>
        {actions}
      </Flex>
    </>
  );
  if (embedded) return <div data-testid={`settings-section-${id}`}>{body}</div>;
  return (
    <Card title={title} data-testid={`settings-section-${id}`}>
      {body}
    </Card>
  );
}
