/**
 * Videos: the library (videos, video sets and how they are presented), resumable uploads (tus),
 * and media (serving files, URLs, thumbnails, deleting and cleaning up stored files, the ffmpeg
 * tools that check and read them).
 */
export { VideoService } from './library/video-service.js';
export { VideoSetService } from './library/video-set-service.js';
export { videoRoutes } from './library/routes.js';
export { uploadRoutes } from './uploads/routes.js';
export { mediaCleanupJob, mediaDeleteJob } from './media/jobs.js';
export { mediaRoutes } from './media/routes.js';
export { THUMBNAIL_JOB, thumbnailJob } from './media/thumbnail-job.js';
export { mediaUrl, storedUrl, publicOrigin } from './media/urls.js';
export { checkPlayable, resolveVideoTools, type VideoTools } from './media/video-tools.js';
