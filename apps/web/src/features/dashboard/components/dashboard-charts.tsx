import { Card, Col, Empty, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useFormatQuota } from '../../../lib/quota';
import type { DashboardData } from './chart-data';

const COLORS = [
  '#1677ff',
  '#52c41a',
  '#faad14',
  '#eb2f96',
  '#722ed1',
  '#13c2c2',
  '#fa541c',
  '#2f54eb',
  '#a0d911',
  '#8c8c8c',
];
const colorOf = (index: number) => COLORS[index % COLORS.length] as string;
const HEIGHT = 300;

/** Quota by model over time (stacked bars), calls by model over time (lines) and the call share. */
export function DashboardCharts({ data }: { data: DashboardData }) {
  const { t } = useTranslation('dashboard');
  const formatQuota = useFormatQuota();
  if (data.models.length === 0) {
    return (
      <Card>
        <Empty description={t('empty')} />
      </Card>
    );
  }
  const quotaTooltip = (value: unknown) => formatQuota(Number(value));
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={16}>
        <Card title={t('charts.quota')} size="small">
          <ResponsiveContainer width="100%" height={HEIGHT}>
            <BarChart data={data.quotaSeries}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="time" />
              <YAxis tickFormatter={(value: number) => formatQuota(value)} width={72} />
              <Tooltip formatter={quotaTooltip} />
              <Legend />
              {data.models.map((model, index) => (
                <Bar key={model} dataKey={model} stackId="quota" fill={colorOf(index)} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card title={t('charts.share')} size="small">
          <ResponsiveContainer width="100%" height={HEIGHT}>
            <PieChart>
              <Pie data={data.countByModel} dataKey="count" nameKey="model" outerRadius="75%" label>
                {data.countByModel.map((entry, index) => (
                  <Cell key={entry.model} fill={colorOf(index)} />
                ))}
              </Pie>
              <Tooltip />
              <Legend />
            </PieChart>
          </ResponsiveContainer>
        </Card>
      </Col>
      <Col span={24}>
        <Card title={t('charts.calls')} size="small">
          <ResponsiveContainer width="100%" height={HEIGHT}>
            <LineChart data={data.countSeries}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="time" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Legend />
              {data.models.map((model, index) => (
                <Line key={model} type="monotone" dataKey={model} stroke={colorOf(index)} dot={false} />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </Card>
      </Col>
    </Row>
  );
}
