// The tests use the same real git smart-HTTP server as the quick start.
export {
  startGitServer,
  type GitServer,
  type GitServerAuth,
  type GitServerOptions,
} from '../../src/dev/git-server.js';
