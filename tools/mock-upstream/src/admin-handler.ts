import type { ServerResponse } from 'node:http';
import type { RequestRecorder } from './request-recorder.ts';
import { sendJson } from './response-writer.ts';

/** Live numbers the health endpoint reports. */
export interface MockServerStatus {
  readonly startedAt: number;
  openConnections(): number;
}

/**
 * The mock's own endpoints, never recorded and never authenticated:
 * `GET /__admin/requests`, `DELETE /__admin/requests`, `GET /__admin/health`.
 */
export function handleAdminRequest(
  method: string,
  path: string,
  response: ServerResponse,
  recorder: RequestRecorder,
  status: MockServerStatus,
): void {
  if (path === '/__admin/requests' && method === 'GET') {
    sendJson(response, 200, { requests: recorder.list() });
  } else if (path === '/__admin/requests' && method === 'DELETE') {
    const cleared = recorder.size;
    recorder.clear();
    sendJson(response, 200, { cleared });
  } else if (path === '/__admin/health' && method === 'GET') {
    sendJson(response, 200, {
      status: 'ok',
      uptimeSeconds: Math.round((Date.now() - status.startedAt) / 1000),
      openConnections: status.openConnections(),
      recordedRequests: recorder.size,
    });
  } else {
    sendJson(response, 404, { error: `no admin endpoint ${method} ${path}` });
  }
}
