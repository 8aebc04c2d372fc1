import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIRM_REVERT_MS, createConfirmArm } from '../../src-renderer/ui/confirm-button-state';

afterEach(() => vi.useRealTimers());

describe('confirm button (two clicks, reverts after 5 s)', () => {
  it('arms on the first click and confirms on a second click in time', () => {
    vi.useFakeTimers();
    const states: boolean[] = [];
    const arm = createConfirmArm((armed) => states.push(armed));
    expect(arm.click()).toBe(false);
    vi.advanceTimersByTime(CONFIRM_REVERT_MS - 1);
    expect(arm.click()).toBe(true);
    expect(states).toEqual([true, false]);
    // Disarmed again: the next click only arms.
    expect(arm.click()).toBe(false);
    arm.dispose();
  });

  it('reverts by itself after 5 s, so a late click only arms again', () => {
    vi.useFakeTimers();
    expect(CONFIRM_REVERT_MS).toBe(5000);
    const states: boolean[] = [];
    const arm = createConfirmArm((armed) => states.push(armed));
    arm.click();
    vi.advanceTimersByTime(CONFIRM_REVERT_MS);
    expect(states).toEqual([true, false]);
    expect(arm.click()).toBe(false);
    expect(states).toEqual([true, false, true]);
    arm.dispose();
    vi.advanceTimersByTime(CONFIRM_REVERT_MS * 2);
    // Disposed: no state change after unmount.
    expect(states).toEqual([true, false, true]);
  });

  it('opens a prompt that Oui confirms and Non closes; confirming after it closed does nothing', () => {
    vi.useFakeTimers();
    const states: boolean[] = [];
    const arm = createConfirmArm((armed) => states.push(armed));
    expect(arm.confirm()).toBe(false);
    arm.arm();
    expect(arm.confirm()).toBe(true);
    arm.arm();
    arm.cancel();
    expect(arm.confirm()).toBe(false);
    arm.arm();
    vi.advanceTimersByTime(CONFIRM_REVERT_MS);
    expect(arm.confirm()).toBe(false);
    expect(states).toEqual([true, false, true, false, true, false]);
    arm.dispose();
  });
});
