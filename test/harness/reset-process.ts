// A setup file of both projects, whose files share a worker process one after another
// (`isolate: false` in vitest.config.ts): each file starts with the environment variables and the
// working directory the worker started with, whatever the file before it set and left behind.
const g = globalThis as {
  __groundworkStartEnv?: Record<string, string | undefined>;
  __groundworkStartCwd?: string;
};
g.__groundworkStartEnv ??= { ...process.env };
g.__groundworkStartCwd ??= process.cwd();
const start = g.__groundworkStartEnv;
for (const key of Object.keys(process.env)) if (!(key in start)) delete process.env[key];
for (const [key, value] of Object.entries(start)) if (process.env[key] !== value) process.env[key] = value;
if (process.cwd() !== g.__groundworkStartCwd) process.chdir(g.__groundworkStartCwd);
