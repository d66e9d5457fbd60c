import { describe, expect, it } from 'vitest';
import { compileJsonSchemas } from './json-schema-check';

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    tab_id: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    target: { anyOf: [{ type: 'object', properties: { selector: { type: 'string' } }, required: ['selector'] }, { type: 'string' }] },
    kind: { type: 'string', enum: ['click', 'input'] },
    version: { type: 'number', const: 1 },
    items: { type: 'array', items: { type: 'integer' } },
  },
  required: ['version'],
  additionalProperties: false,
};

describe('compileJsonSchemas', () => {
  const check = compileJsonSchemas({ 'steps.json': schema });

  it.each<[unknown, { pointer: string; message: string }[]]>([
    [{ version: 1, tab_id: null, kind: 'click', target: 'a#b', items: [1] }, []],
    [{ version: 1, tab_id: '7' }, [{ pointer: '/tab_id', message: 'must be integer or must be null' }]],
    [{ version: 2 }, [{ pointer: '/version', message: 'must be equal to constant 1' }]],
    [{ version: 1, kind: 'hover' }, [{ pointer: '/kind', message: 'must be equal to one of the allowed values ["click","input"]' }]],
    [{ version: 1, extra: true }, [{ pointer: '', message: 'must NOT have additional properties ("extra")' }]],
    [{}, [{ pointer: '', message: "must have required property 'version'" }]],
    [{ version: 1, items: [1, 'x', 2.5] }, [{ pointer: '/items/1', message: 'must be integer' }, { pointer: '/items/2', message: 'must be integer' }]],
    [{ version: 1, target: {} }, [{ pointer: '/target', message: "must have required property 'selector' or must be string" }]],
    // Branches that failed at different depths stay apart, and the union's own line says which value.
    [{ version: 1, target: { selector: 5 } }, [
      { pointer: '/target/selector', message: 'must be string' },
      { pointer: '/target', message: 'must be string' },
      { pointer: '/target', message: 'must match a schema in anyOf' },
    ]],
  ])('%j', (value, problems) => {
    expect(check('steps.json', value)).toEqual(problems.map((p) => ({ file: 'steps.json', ...p })));
  });

  it('checks only files it has a schema for', () => {
    expect(check('notes.json', { anything: true })).toEqual([]);
  });
});
