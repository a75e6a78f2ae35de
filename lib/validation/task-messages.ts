/**
 * The daily task's limits and messages, apart from its schemas (tasks.ts) so
 * the home banner can show them without loading zod: a module that builds
 * schemas at its top level cannot be tree-shaken out of a page's first load.
 */
export const DAILY_TASK_MAX = 500;

export const TASK_MESSAGES = {
  // Spec section 8 (the home banner); the API's 404 says the first half.
  noTaskToday: 'No task available today.',
  noTaskTodayBanner: 'No task available today. Check back later!',
  loadFailed: 'Could not load task. Try again later.',
  completeFailed: 'Could not complete the task. Please try again.',
  alreadyCompleted: "You have already completed today's task.",
  descriptionRequired: 'Task description is required.',
  descriptionTooLong: `The task description can be at most ${DAILY_TASK_MAX} characters.`,
  badDate: 'Use a date like 2026-05-01 (YYYY-MM-DD, a UTC day).',
  pastDate: 'Choose today or a later date (UTC) to schedule a task.',
  dateTaken: (day: string) => `Another task is already scheduled for ${day}.`,
  nothingToChange: 'Send a new description or date to change.',
  badId: 'That is not a valid task id.',
  notFound: 'Task not found',
} as const;
