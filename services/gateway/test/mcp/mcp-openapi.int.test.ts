import { buildOpenApiDocument } from '@svc/contracts';
import { z } from 'zod';
import { type AppHarness, startAppHarness } from '../support/app-harness';
import { rawMcpPost } from './mcp-client';

/**
 * The POST /mcp operation of /openapi.json against what the endpoint really answers (the SDK's
 * transport decides the framing, not our contracts): the media type of a 200 must be one the
 * document lists for it.
 */
const McpPathItem = z.object({
  paths: z.object({
    '/mcp': z.object({
      post: z.object({
        responses: z.record(z.string(), z.object({ content: z.record(z.string(), z.unknown()).optional() })),
      }),
    }),
  }),
});

/** The media types /openapi.json lists for a status of POST /mcp. */
function documentedMediaTypes(status: string): string[] {
  const doc = McpPathItem.parse(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  return Object.keys(doc.paths['/mcp'].post.responses[status]?.content ?? {});
}

describe('POST /mcp in the OpenAPI document (app harness)', () => {
  let app: AppHarness;

  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    [
      'initialize',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    ],
    ['tools/list', { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
    [
      'tools/call with a progressToken',
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'svc_capability_describe', arguments: { slug: 'crt' }, _meta: { progressToken: 7 } },
      },
    ],
  ])('a %s answer comes in a media type the document lists for 200', async (name, body) => {
    const res = await rawMcpPost(
      app.url,
      { authorization: `Bearer ${app.keys.plain}`, 'mcp-protocol-version': '2025-11-25' },
      body,
    );
    await res.text();
    expect(res.status).toBe(200);
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim();
    expect(documentedMediaTypes('200')).toContain(mediaType);
    // Plain JSON unless progress was asked for (decisions M1).
    expect(mediaType).toBe(name.includes('progressToken') ? 'text/event-stream' : 'application/json');
  });

  it('needs a client that accepts both media types: one accepting only JSON gets 406', async () => {
    const res = await rawMcpPost(app.url, {
      authorization: `Bearer ${app.keys.plain}`,
      accept: 'application/json',
    });
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });
});
