import type { MockRequestContext, MockRouteHandler } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';

/**
 * Wraps an OpenAI handler for Azure OpenAI's deployment paths
 * (`/openai/deployments/{deployment}/chat/completions?api-version=…`): the `api-version` query is
 * required (Azure answers 404 `Resource not found` without it), and a JSON body without `model`
 * is answered for the deployment's name (Azure takes the model from the path).
 */
export function azureDeploymentHandler(handler: MockRouteHandler): MockRouteHandler {
  return (context: MockRequestContext) => {
    if (!context.query.get('api-version')) {
      sendProtocolError(context.response, 'openai', {
        status: 404,
        code: '404',
        message: 'Resource not found',
      });
      return;
    }
    const model = context.pathModel;
    if (model === undefined || typeof context.body.model === 'string') return handler(context);
    return handler({ ...context, body: { ...context.body, model } });
  };
}
