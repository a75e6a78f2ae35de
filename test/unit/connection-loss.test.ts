import { isDatabaseConnectionLoss } from '@/lib/db/connection-loss';

/** Which failures are the database's outage (answered 503, the process goes on) and which stay bugs (500). */
describe('isDatabaseConnectionLoss', () => {
  const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  /** Drizzle's DrizzleQueryError: its own message, the driver's error as its cause. */
  const drizzle = (cause: unknown) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });

  it.each([
    [
      '57P01 admin_shutdown (a restart, pg_terminate_backend)',
      pgError('57P01', 'terminating connection due to administrator command'),
    ],
    ['57P03 cannot_connect_now (starting up)', pgError('57P03', 'the database system is starting up')],
    ['class 08, connection exception', pgError('08006')],
    ['53300 too_many_connections', pgError('53300')],
    ['a refused socket', pgError('ECONNREFUSED')],
    ['a reset socket', pgError('ECONNRESET')],
    ['node-postgres: the connection ended', new Error('Connection terminated unexpectedly')],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect')],
    ['wrapped by Drizzle', drizzle(pgError('57P01'))],
    ['refused on every address of the host', drizzle(new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')]))],
  ])('%s is a lost connection', (_, error) => {
    expect(isDatabaseConnectionLoss(error)).toBe(true);
  });

  it.each([
    ['a unique violation', drizzle(pgError('23505', 'duplicate key value violates unique constraint'))],
    ['a syntax error', pgError('42601')],
    ['a bug of ours', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a string', 'Connection terminated'],
    ['nothing', undefined],
  ])('%s is not', (_, error) => {
    expect(isDatabaseConnectionLoss(error)).toBe(false);
  });

  it('stops at a cause chain that loops', () => {
    const error: Error & { cause?: unknown } = new Error('loop');
    error.cause = error;
    expect(isDatabaseConnectionLoss(error)).toBe(false);
  });
});
