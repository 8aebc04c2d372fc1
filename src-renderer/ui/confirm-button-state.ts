/** How long a confirm button waits for its second click before it reverts (architecture: 5 s). */
export const CONFIRM_REVERT_MS = 5000;

/**
 * The two-click confirmation of a risky inline action: the first click arms the button, a second click within
 * the delay confirms, and after the delay it reverts by itself.
 */
export function createConfirmArm(onChange: (armed: boolean) => void, revertAfterMs = CONFIRM_REVERT_MS) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const disarm = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    onChange(false);
  };
  return {
    /** Returns true when this click confirms the action. */
    click(): boolean {
      if (timer) {
        disarm();
        return true;
      }
      onChange(true);
      timer = setTimeout(disarm, revertAfterMs);
      return false;
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
