export { pushStatusRoutes } from './routes.js';
