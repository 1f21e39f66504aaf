import { Hono, type Context } from 'hono';
import { backendError } from './api/gateway-errors.ts';
import { isoWithOffset } from './api/poll-json.ts';
import { phaseAt } from './data/poll-tally.ts';
import { resetSandboxState } from './reset.ts';
import type { SandboxState } from './sandbox-state.ts';

/**
 * The sandbox's control surface for tests and partners, under `/__sandbox/` on the API origin: read the state,
 * set the clock, switch faults, reset, simulate votes, make votes end rejected. Every write needs
 * `Content-Type: application/json` (so that no other web page can send one without a CORS preflight, which these
 * routes do not answer). The sandbox listens on loopback only.
 */
/** The clock's range: seeded polls lie up to a year either side of it, and every one must be a real date-time. */
const earliestClock = Date.UTC(1971, 0, 1);
const latestClock = Date.UTC(9998, 11, 31);

/** Upper bounds of the settings (as `npm run sandbox` bounds its flags). */
const settingLimits = {
  requestsPerMinute: 1_000_000,
  voteConfirmationMs: 24 * 60 * 60 * 1000,
  simulatedVotesPerMinute: 6000,
} as const;

export function createControlRoutes(state: SandboxState): Hono {
  const app = new Hono();

  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && !/^application\/json\s*(;|$)/i.test(c.req.header('Content-Type') ?? '')) {
      return backendError(415, 'Control routes take Content-Type: application/json (an empty body is {}).');
    }
    await next();
  });

  app.get('/state', (c) => c.json(describe(state)));

  app.post('/clock', async (c) => {
    const body = await readObject(c);
    if (body === undefined) return badControl('The body must be a JSON object.');
    const { now, advanceMs, frozen } = body;
    const instant =
      now === undefined
        ? state.clock.now()
        : typeof now === 'number'
          ? now
          : typeof now === 'string'
            ? Date.parse(now)
            : NaN;
    if (!Number.isFinite(instant))
      return badControl('"now" must be an ISO 8601 date-time or epoch milliseconds.');
    if (advanceMs !== undefined && (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs)))
      return badControl('"advanceMs" must be a number.');
    // The seeded polls lie up to a year either side of the clock: every date must stay a real date-time.
    const target = instant + (advanceMs ?? 0);
    if (target < earliestClock || target > latestClock)
      return badControl(
        'The clock must stay between 1971 and 9998 (polls are dated up to a year either side).',
      );
    if (now !== undefined) state.clock.set(instant);
    if (advanceMs !== undefined) state.clock.advance(advanceMs);
    if (frozen === true) state.clock.freeze();
    if (frozen === false) state.clock.resume();
    return c.json(describe(state));
  });

  app.post('/faults', async (c) => {
    const body = await readObject(c);
    if (body === undefined) return badControl('The body must be a JSON object.');
    const known = Object.keys(state.faults.settings);
    const unknown = Object.keys(body).find((key) => !known.includes(key) || typeof body[key] !== 'number');
    if (unknown !== undefined)
      return badControl(`"${unknown}" is not a fault setting (numbers: ${known.join(', ')}).`);
    try {
      state.faults.set(body);
    } catch (error) {
      return badControl(error instanceof Error ? error.message : 'Bad fault settings.');
    }
    return c.json(state.faults.settings);
  });

  app.delete('/faults', (c) => {
    state.faults.clear();
    return c.json(state.faults.settings);
  });

  app.post('/reset', (c) => {
    resetSandboxState(state);
    return c.json(describe(state));
  });

  app.post('/simulate', async (c) => {
    const body = await readObject(c);
    const rounds = body?.rounds ?? 1;
    if (typeof rounds !== 'number' || !Number.isInteger(rounds) || rounds < 0 || rounds > 10_000) {
      return badControl('"rounds" must be an integer from 0 to 10000.');
    }
    return c.json({ cast: state.simulation.simulateVotes(rounds) });
  });

  app.post('/votes/reject-next', async (c) => {
    const count = (await readObject(c))?.count;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
      return badControl('"count" must be a non-negative integer.');
    }
    state.polls.rejectNextVotes(count);
    return c.json({ pendingRejections: state.polls.pendingRejections });
  });

  app.post('/settings', async (c) => {
    const body = await readObject(c);
    if (body === undefined) return badControl('The body must be a JSON object.');
    for (const [key, value] of Object.entries(body)) {
      const max = settingLimits[key as keyof typeof settingLimits] as number | undefined;
      if (
        max === undefined ||
        typeof value !== 'number' ||
        !Number.isInteger(value) ||
        value < 0 ||
        value > max
      ) {
        return badControl(
          `"${key}" is not a setting (whole numbers: ${Object.entries(settingLimits)
            .map(([name, limit]) => `${name} 0 to ${limit}`)
            .join(', ')}).`,
        );
      }
    }
    const { requestsPerMinute, voteConfirmationMs, simulatedVotesPerMinute } = body as Record<string, number>;
    if (requestsPerMinute !== undefined) state.throttle.requestsPerMinute = requestsPerMinute;
    if (voteConfirmationMs !== undefined) state.polls.voteConfirmationMs = voteConfirmationMs;
    if (simulatedVotesPerMinute !== undefined) state.simulation.setRate(simulatedVotesPerMinute);
    return c.json(describe(state));
  });

  app.notFound(() => backendError(404, 'No such control route; see src/sandbox/README.md.'));
  return app;
}

function describe(state: SandboxState): Record<string, unknown> {
  const now = state.clock.now();
  return {
    now: isoWithOffset(now),
    nowMs: now,
    frozen: state.clock.frozen,
    requestsPerMinute: state.throttle.requestsPerMinute,
    voteConfirmationMs: state.polls.voteConfirmationMs,
    pendingRejections: state.polls.pendingRejections,
    faults: state.faults.settings,
    simulation: {
      running: state.simulation.running,
      votesPerMinute: state.simulation.votesPerMinute,
      castCount: state.simulation.castCount,
    },
    polls: state.polls.all().map((poll) => ({
      id: poll.id,
      question: poll.question,
      phase: phaseAt(poll, now),
      published: poll.publicationDate <= now,
      answerIds: poll.answers.map((answer) => answer.id),
    })),
  };
}

async function readObject(c: Context): Promise<Record<string, unknown> | undefined> {
  try {
    const text = await c.req.text();
    const body: unknown = text.trim() === '' ? {} : JSON.parse(text);
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function badControl(description: string): Response {
  return backendError(400, description);
}
