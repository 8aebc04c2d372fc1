import { describe, expect, it } from 'vitest';
import { AUDIENCE_MESSAGES } from '@shared/messages/audiences';
import { formatAmount, formatNumber } from '@shared/rules/projects';

describe('French counts and amounts', () => {
  it('takes the singular for 0 and 1 users, the plural from 2', () => {
    expect(AUDIENCE_MESSAGES.userCount(0)).toBe('0 utilisateur');
    expect(AUDIENCE_MESSAGES.userCount(1)).toBe('1 utilisateur');
    expect(AUDIENCE_MESSAGES.userCount(2)).toBe('2 utilisateurs');
    expect(AUDIENCE_MESSAGES.userCount(14008)).toBe('14 008 utilisateurs');
  });

  it('writes amounts and decimals one French way: space thousands, decimal comma', () => {
    expect(formatAmount(12500.5)).toBe('12 500,50 €');
    expect(formatAmount(-1200)).toBe('-1 200,00 €');
    expect(formatNumber(1234.5)).toBe('1 234,5');
  });
});
