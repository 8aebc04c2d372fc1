import { describe, expect, it } from 'vitest';
import { contract, operationIds, type Operation } from '@shared/contract';
import { contractExamples } from '../fixtures/contract-examples';

describe('contract examples', () => {
  it('give one example input for every operation of the contract', () => {
    expect(operationIds.filter((id) => !contractExamples[id])).toEqual([]);
  });

  it('are valid inputs of their operation', () => {
    for (const id of operationIds) {
      const operation = contract[id] as Operation;
      const example = contractExamples[id]!;
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = operation[part];
        if (!schema) expect(example[part], `${id} has no ${part}`).toBeUndefined();
        else expect(schema.safeParse(example[part]).success, `${id} ${part}: ${JSON.stringify(example[part])}`).toBe(true);
      }
    }
  });
});
