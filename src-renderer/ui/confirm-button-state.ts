/** How long a confirm prompt waits for an answer before it closes by itself (adverts-articles.md §2.2: 5 s). */
export const CONFIRM_REVERT_MS = 5000;

/**
 * The confirmation of a risky inline action: arming opens the prompt, confirming within the delay runs the
 * action, and after the delay the prompt closes by itself. `click` is the two-click form (arm, then confirm).
 */
export function createConfirmArm(onChange: (armed: boolean) => void, revertAfterMs = CONFIRM_REVERT_MS) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const disarm = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    onChange(false);
  };
  const arm = () => {
    if (timer) clearTimeout(timer);
    onChange(true);
    timer = setTimeout(disarm, revertAfterMs);
  };
  /** True when the prompt was open: the action may run. */
  const confirm = (): boolean => {
    if (!timer) return false;
    disarm();
    return true;
  };
  return {
    arm,
    confirm,
    cancel: () => {
      if (timer) disarm();
    },
    /** Returns true when this click confirms the action. */
    click(): boolean {
      if (timer) return confirm();
      arm();
      return false;
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
