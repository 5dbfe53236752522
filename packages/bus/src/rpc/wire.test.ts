import { createBatcher } from './batch';
import { parseReplyMessage, parseRequestMessage } from './wire';

describe('RPC wire messages', () => {
  const request = {
    id: 'a1',
    method: 'search',
    deadline: 1,
    reply_to: 'p:rpc-replies:x',
    request: { sealed: 's' },
  };

  it('parses a request message and refuses what is not one', () => {
    expect(parseRequestMessage(JSON.stringify(request))).toEqual(request);
    expect(parseRequestMessage('{"id":"a1"')).toBeUndefined();
    expect(parseRequestMessage(JSON.stringify({ ...request, reply_to: undefined }))).toBeUndefined();
    expect(parseRequestMessage(JSON.stringify({ ...request, id: '' }))).toBeUndefined();
    expect(parseRequestMessage(JSON.stringify({ ...request, deadline: 'soon' }))).toBeUndefined();
  });

  it('parses a reply message and refuses what is not one', () => {
    expect(parseReplyMessage('{"id":"a1","reply":{"sealed":"s"}}')).toEqual({
      id: 'a1',
      reply: { sealed: 's' },
    });
    expect(parseReplyMessage('null')).toBeUndefined();
    expect(parseReplyMessage('{"reply":{}}')).toBeUndefined();
  });
});

describe('createBatcher', () => {
  it('hands over what one turn of the event loop added as one batch, the next turn as another', async () => {
    const batches: number[][] = [];
    const add = createBatcher<number>((batch) => batches.push(batch));
    add(1);
    add(2);
    await Promise.resolve();
    add(3);
    await new Promise((resolve) => setImmediate(resolve));
    add(4);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });
});
