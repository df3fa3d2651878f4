/** jsonAs: a server's body is data; what is not the shape asked for reads as null. */
import assert from 'node:assert/strict';
import { z } from 'zod';
import { jsonAs } from '../../../src/ground/json-as.ts';

describe('jsonAs', () => {
  const Shape = z.object({ data: z.array(z.object({ id: z.string() })) });

  it('returns the parsed value of the shape, and null for anything else a server sends', () => {
    assert.deepEqual(jsonAs(Shape, '{"data":[{"id":"m"}]}'), { data: [{ id: 'm' }] });
    for (const body of ['', '<html><body>502 Bad Gateway</body></html>', '{"data":[{"id":"m"}', 'data: {"data":[]}\n\n', 'null', '{"data":"m"}', '[]'])
      assert.equal(jsonAs(Shape, body), null, JSON.stringify(body));
  });
});
