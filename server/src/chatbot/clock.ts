/**
 * The chatbot's "now": working hours, the queue list's waiting time and the template variables read it.
 * Tests set `clock.now` instead of sleeping or faking the process's timers.
 */
export const clock: { now: () => Date } = { now: () => new Date() };
