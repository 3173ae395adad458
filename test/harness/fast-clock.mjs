// Preload for a CLI process under test (`node --import <this file> bin/groundwork.js ...`): from
// start-up, `Date.now()` runs GW_TEST_CLOCK_SPEED times as fast (default 10). Timers keep real
// time. What measures elapsed time with Date.now (waits, their progress reports, the line limiter
// of plain progress output) then reaches minutes in seconds, so a test can wait for what the
// process prints after an interval instead of sleeping through it. `new Date()` is unchanged.
const realNow = Date.now.bind(Date);
const start = realNow();
const speed = Number(process.env.GW_TEST_CLOCK_SPEED ?? 10);
Date.now = () => Math.floor(start + (realNow() - start) * speed);
