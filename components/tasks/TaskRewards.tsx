import { compactCount } from '@/lib/format/numbers';

import './tasks.css';

/**
 * A member's daily-task rewards on their profile: the reward counter (tasks
 * completed, ever) and the current streak of consecutive UTC days. Each
 * label comes before its value, so the page reads the same as it looks.
 */
export function TaskRewards({ tasks, streak }: { tasks: number; streak: number }) {
  return (
    <dl className="profile-rewards" aria-label="Daily task rewards">
      <div className="profile-reward">
        <dt>Daily tasks completed</dt>
        <dd data-testid="reward-tasks" title={tasks.toLocaleString('en-US')}>
          {compactCount(tasks)}
        </dd>
      </div>
      <div className="profile-reward">
        <dt>Current streak</dt>
        <dd data-testid="reward-streak">
          {compactCount(streak)} {streak === 1 ? 'day' : 'days'}
        </dd>
      </div>
    </dl>
  );
}
