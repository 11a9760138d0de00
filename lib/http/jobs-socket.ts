import { pacedSender } from './socket-pacing';
import type { SocketRoute } from './ws-router';

/**
 * /ws/jobs: pushes every job state change (start, progress, end) to the console so lists update
 * live without polling. Per-job logs stay on the SSE stream, which resumes with Last-Event-ID.
 */
export const jobsSocket: SocketRoute = {
  path: '/ws/jobs',
  permission: 'jobs.read',
  maxPayload: 1024,
  onConnection(ws, { services }) {
    // A slow console gets the latest state of each job once it drains; a dead one is dropped by ping.
    const send = pacedSender(ws, { maxBufferedBytes: 256 * 1024, maxHeld: 2000, pingMs: 30_000 });
    const off = services.hub.onJobState((job) => send(job.id, JSON.stringify({ type: 'job', job })));
    ws.send(JSON.stringify({ type: 'hello', at: new Date().toISOString() }));
    ws.on('message', () => ws.close(1003, 'This socket only sends.'));
    ws.on('close', off);
  },
};
