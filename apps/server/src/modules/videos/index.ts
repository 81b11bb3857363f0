/** The video library, resumable uploads and media (files, thumbnails, the tools that make them). */
export { mediaCleanupJob, mediaDeleteJob } from './media-jobs.js';
export { mediaRoutes } from './media-routes.js';
export { mediaUrl, presentStoredUrl, publicOrigin } from './media-urls.js';
export { videoRoutes } from './routes.js';
export { THUMBNAIL_JOB, thumbnailJob } from './thumbnail-job.js';
export { uploadRoutes } from './upload-routes.js';
export { VideoService } from './video-service.js';
export { VideoSetService } from './video-set-service.js';
export { checkPlayable, resolveVideoTools, type VideoTools } from './video-tools.js';
