/**
 * Every user-facing text of the spec (§5 validation, §8 errors) in one place, so the server's
 * validation, the OpenAPI document and the console's forms can never disagree.
 */
export const messages = {
  login: {
    failed: 'Unauthorized! Please check the email address, password or MFA and try again.',
  },
  session: {
    required: 'Please sign in to continue.',
    forbidden: 'Your access level does not allow this.',
  },
  admin: {
    usernameEmpty: 'Username cannot be empty',
    usernameShort: 'Username must be at least 6 characters',
    passwordEmpty: 'Password cannot be empty',
    passwordShort: 'Password must be at least 8 characters',
    firstNameEmpty: 'First name cannot be empty',
    lastNameEmpty: 'Last name cannot be empty',
    usernameTaken: 'An admin user with this username already exists',
    notFound: 'Admin user not found',
    lastFullAccess: 'The last full-access admin user cannot be deleted or demoted',
    cannotDeleteSelf: 'You cannot delete your own account',
    deleteConfirm: 'This admin user will be deleted immediately. This cannot be undone.',
  },
  videoSet: {
    nameEmpty: 'Set Name cannot be empty',
    nameShort: 'Set Name must be at least 2 characters',
    weeksEmpty: 'Number Of Weeks cannot be empty',
    weeksInvalid: 'Number Of Weeks must be a whole number from 1',
    videosInWeekEmpty: 'Videos Per Week cannot be empty',
    videosInWeekInvalid: 'Videos Per Week must be a whole number from 1 to 7',
    weeksTooMany: 'Number Of Weeks must be at most 520',
    notFound: 'Video set not found',
    deleted: 'Video set deleted',
  },
  video: {
    titleEmpty: 'Video Title cannot be empty',
    titleShort: 'Video Title must be at least 2 characters',
    descriptionEmpty: 'Description cannot be empty',
    descriptionShort: 'Description must be at least 2 characters',
    notFound: 'Video not found',
    deleted: 'Video deleted',
    weekInvalid: 'Week must be a whole number within the weeks of the set',
    dayInvalid: 'Day must be a whole number within the videos per week of the set',
    positionTaken: 'This day of the set already has a video; remove or edit that one instead',
    fileMissing: 'Please upload a video file before saving',
  },
  upload: {
    notAVideo: 'This file is not a playable video. Please choose a video file such as MP4 or WebM.',
    tooLarge: 'This video is larger than the upload limit',
    unknownFile:
      'The video file was not found on the server (it may have been refused or cleaned up). Please upload it again.',
    notFinished: 'The video upload has not finished yet',
    failed: 'The upload could not be stored. Please try again.',
  },
  device: {
    nameEmpty: 'Identifiable name cannot be empty',
    nameShort: 'Identifiable name must be at least 2 characters',
    uuidEmpty: 'Universally unique identifier (UUID) cannot be empty',
    noneAvailable:
      'No devices available - please add one in the authorised devices section or remove existing device from user.',
    notFound: 'Device not found',
  },
  message: {
    titleEmpty: 'Message title cannot be empty',
    titleShort: 'Message title must be at least 2 characters',
    bodyEmpty: 'Message body cannot be empty',
    bodyShort: 'Message body must be at least 2 characters',
  },
  participant: {
    firstNameEmpty: 'First name cannot be empty',
    lastNameEmpty: 'Last name cannot be empty',
    deviceEmpty: 'Device cannot be empty',
    addressEmpty: 'Address cannot be empty',
    dobEmpty: 'DOB cannot be empty',
    dobRange: 'DOB must be between 01/01/1900 and today',
    phoneEmpty: 'Phone number cannot be empty',
    phoneFormat: 'Must start with + and country code and be exactly 12 digits',
    languageEmpty: 'Language cannot be empty',
    minTwo: 'Must be at least 2 characters',
    notFound: 'Participant not found',
  },
  referral: {
    programmeEmpty: 'Programme referred to cannot be empty',
    organisationEmpty: 'Referring Organisation cannot be empty',
    professionalEmpty: 'Referring Healthcare Professional cannot be empty',
    professionalRoleEmpty: 'Referring Healthcare Professional Role cannot be empty',
    contraindicationsEmpty: 'Contraindications To Exercise cannot be empty',
    selectionEmpty: 'Selection cannot be empty',
  },
  progress: {
    unableToProgress: 'Unable to progress',
    participantNotified: 'Participant notified',
    associated: 'User associated with video set',
    cannotMoveBack:
      'Cannot move participant back to other week. Only values greater or lesser than current day, and greater than current week are allowed.',
    overrideWarning: 'Overriding the video set resets all progress.',
    confirm: 'Are you sure?',
  },
  thumbnail: {
    couldNotDownload: 'Could not download video',
    /** The status a video shows until its thumbnail exists (spec §3, §4). */
    processing: 'processing....',
    /** Shown instead of a thumbnail when every try to make one failed. */
    failed: 'Thumbnail could not be made from this video',
    queued: 'Thumbnail generation started',
    urlMismatch: 'The video URL does not belong to this video',
  },
  grid: {
    valueEmpty: 'Value cannot be empty',
  },
  logs: {
    notFound: 'Log file not found',
    badName: 'Invalid log file name',
  },
  generic: {
    badRequest: 'The request is not valid',
    notFound: 'Not found',
    internal: 'Something went wrong on the server. The error has been logged.',
    unavailable: 'The service is temporarily unavailable. Please try again shortly.',
    tooLarge: 'The request is too large',
    /** Title of the box that shows a server's refusal in the console's modals (spec §8). */
    warningTitle: 'Warning!',
    networkError: 'Could not reach the server. Check your connection and try again.',
    pageLoadFailed:
      'This page could not be loaded. The console may have been updated, or the connection dropped. Reload to try again.',
  },
} as const;
