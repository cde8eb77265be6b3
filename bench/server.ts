import autocannon from 'autocannon';
import { openAssistant } from '../src/assistant/index.js';
import { loadConfig } from '../src/config/index.js';
import { startServer } from '../src/server/index.js';

const CONNECTIONS = 50;
const QUESTIONS = [
  'What is a ROS 2 topic?',
  'Which GPU does the workstation need?',
  'What are the capstone milestones?',
  'What does Module 3 cover?',
  'How do I install ROS 2 Humble?',
];

/** Load on one endpoint: each connection cycles through the questions. */
function load(url: string, path: string, options: { amount?: number; duration?: number }) {
  return autocannon({
    url,
    connections: CONNECTIONS,
    ...options,
    requests: QUESTIONS.map((query) => ({
      method: 'POST' as const,
      path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    })),
  });
}

/**
 * Server throughput on loopback with autocannon at 50 connections: `POST /route` (routing only)
 * and `POST /chat` (extractive answers over the sample book, anonymous session), requests per
 * second and p99 latency, and the RSS after 10,000 chat requests. Server and load generator share
 * one process, so RSS includes autocannon.
 */
export async function benchServer(): Promise<Record<string, number | string>> {
  const opened = await openAssistant({
    config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd: process.cwd() }),
  });
  const running = await startServer(opened, {
    server: { port: 0, host: '127.0.0.1' },
    handleSignals: false,
    close: opened.close,
  });
  try {
    const rssBefore = process.memoryUsage().rss;
    const route = await load(running.url, '/route', { duration: 5 });
    const chat = await load(running.url, '/chat', { amount: 10_000 });
    const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
    return {
      'route req/s': Math.round(route.requests.average),
      'route p99 ms': route.latency.p99,
      'route non-2xx': route.non2xx + route.errors,
      'chat req/s': Math.round(chat.requests.average),
      'chat p99 ms': chat.latency.p99,
      'chat non-2xx': chat.non2xx + chat.errors,
      'chat requests': chat.requests.total,
      'rss before MB': mb(rssBefore),
      'rss after 10k chat MB': mb(process.memoryUsage().rss),
      connections: CONNECTIONS,
    };
  } finally {
    await running.close();
  }
}
