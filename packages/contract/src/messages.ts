/**
 * Every user-facing text of the spec (§5 validation, §8 errors) in one place, so the server's
 * validation, the OpenAPI document and the console's forms can never disagree.
 */
export const messages = {
  login: {
    failed: 'Unauthorized! Please check the email address, password or MFA and try again.',
    // Said beside an empty field before anything is sent (the server is not asked).
    userNameEmpty: 'Email address or user name cannot be empty',
    passwordEmpty: 'Password cannot be empty',
    mfaEmpty: 'MFA code cannot be empty',
    /** Too many sign-in attempts from one address, or from everywhere at once (429). */
    tooManyAttempts: (seconds: number) =>
      `Too many sign-in attempts. Please wait ${seconds} seconds and try again.`,
    busy: 'The server is busy checking other sign-ins. Please try again in a few seconds.',
  },
  rateLimit: {
    tooMany: (retryAfterSeconds: number) =>
      `Too many requests. Please try again in ${retryAfterSeconds} seconds.`,
  },
  /** Requests whose origin is not the console's own (cross-site request forgery). */
  origin: {
    refused: 'This request did not come from the Pathway console and was refused.',
    formRefused: 'Form-encoded bodies are only accepted from the tablet app and the sign-in form.',
  },
  session: {
    required: 'Please sign in to continue.',
    forbidden: 'Your access level does not allow this.',
  },
  admin: {
    usernameEmpty: 'Username cannot be empty',
    usernameShort: 'Username must be at least 6 characters',
    passwordEmpty: 'Password cannot be empty',
    passwordShort: 'Password must be at least 12 characters',
    passwordCommon:
      'This password is too common or too easy to guess (it is on a list of leaked and popular passwords). Please choose another, such as three random words.',
    passwordIsUserName: 'The password must not contain the username',
    passwordSameAsCurrent: 'The new password must differ from the current one',
    currentPasswordWrong: 'The current password or the authenticator code is wrong',
    currentPasswordEmpty: 'Current password cannot be empty',
    mfaEmpty: 'MFA code cannot be empty',
    newPasswordsDiffer: 'The two new passwords are not the same',
    /** Wrong current passwords or codes in a row, counted with the sign-in failures (429). */
    tooManyWrongAttempts: (seconds: number) =>
      `Too many wrong attempts. Please wait ${seconds} seconds and try again.`,
    /** Resets are for someone else's account; one's own goes through Change password. */
    resetOwnAccount:
      'You cannot reset your own account here. Use Change password in the Exit menu; it asks for your current password and authenticator code.',
    passwordChanged: 'Password changed. Please sign in again with the new password.',
    passwordReset: "Password reset. The admin's sessions have ended.",
    authenticatorReset:
      "Authenticator reset. The admin's sessions have ended; they must scan the new QR code.",
    unlocked: 'Sign-in lock lifted',
    unlockConfirm:
      'Sign-ins under this username are no longer slowed down or locked, from every address. Lift the lock only when you know who made the failed attempts.',
    resetAuthenticatorConfirm:
      'A new QR code is made for their authenticator app and the old codes stop working at once. Every session of this admin ends now.',
    resetPasswordConfirm:
      'Their current password stops working at once and every session of this admin ends now. Tell them the new password in person or by phone, never by email.',
    lockNotFound: 'No sign-in lock found for this username',
    firstNameEmpty: 'First name cannot be empty',
    lastNameEmpty: 'Last name cannot be empty',
    usernameTaken: 'An admin user with this username already exists',
    notFound: 'Admin user not found',
    lastFullAccess: 'The last full-access admin user of an organisation cannot be deleted or demoted',
    cannotDeleteSelf: 'You cannot delete your own account',
    deleteConfirm: 'This admin user will be deleted immediately. This cannot be undone.',
  },
  organisation: {
    nameEmpty: 'Organisation name cannot be empty',
    nameShort: 'Organisation name must be at least 2 characters',
    nameTaken: 'An organisation with this name already exists',
    odsCodeEmpty: 'ODS code cannot be empty',
    odsCodeInvalid: 'The ODS code must be 3 to 5 letters and digits',
    odsCodeTaken: 'An organisation with this ODS code already exists',
    notFound: 'Organisation not found',
    siteNameEmpty: 'Site name cannot be empty',
    siteNameShort: 'Site name must be at least 2 characters',
    siteNameTaken: 'This organisation already has a site with this name',
    siteNotFound: 'Site not found',
    /** `?site_id=` that is no site id at all. */
    siteFilterInvalid: 'site_id must be a whole number',
    siteFilterRange: 'site_id is out of range',
    /** A participant added where the organisation has more than one site. */
    siteRequired: 'Choose the site this participant belongs to',
    /** A site named in a body (a participant's, an admin's limit) that is not one of the organisation's. */
    siteOfOtherOrganisation: "The site must be one of the organisation's sites",
    /** An admin's sites must be among the sites the admin who sets them may see. */
    siteNotYours: 'You can only give an admin sites you work at yourself',
    transferSameSite: 'The participant already belongs to this site',
    transferred: (site: string) => `Participant transferred to ${site}`,
    systemAdministratorOnly: 'Only a system administrator can do this',
    otherOrganisationAdmins: "Only a system administrator can manage another organisation's admin users",
    lastSystemAdministrator: 'The last system administrator cannot lose that role or be deleted',
    sharedSetReadOnly: 'A shared video set can only be changed by a system administrator',
    /** Deleting from the library ends or moves programmes at every site of the organisation. */
    libraryDeleteEverySite:
      "Only an admin of all the organisation's sites can delete video sets and videos: programmes at every site use them",
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
    /** Deleting the video of some participant's current day (see README, Programme rules). */
    deleteMovesParticipants: (n: number) =>
      `${n} ${n === 1 ? 'participant is' : 'participants are'} on this video's day; deleting it moves them back to the nearest earlier day of the set that has a video.`,
    deleteNoEarlierDay:
      "Some participants are on this video's day and no earlier day of the set has a video to move them back to. Move them to another day, or add an earlier video, first.",
  },
  upload: {
    notAVideo: 'This file is not a playable video. Please choose a video file such as MP4 or WebM.',
    tooLarge: 'This video is larger than the upload limit',
    unknownFile:
      'The video file was not found on the server (it may have been refused or cleaned up). Please upload it again.',
    notFinished: 'The video upload has not finished yet',
    failed: 'The upload could not be stored. Please try again.',
    offsetMoved:
      'The upload changed on the server while these bytes were sent. Please resume from the offset the server reports.',
  },
  device: {
    nameEmpty: 'Identifiable name cannot be empty',
    nameShort: 'Identifiable name must be at least 2 characters',
    uuidEmpty: 'Universally unique identifier (UUID) cannot be empty',
    noneAvailable:
      'No devices available - please add one in the authorised devices section or remove existing device from user.',
    notFound: 'Device not found',
    uuidTaken: 'A device with this UUID already exists',
    uuidFormat: 'The UUID may contain only letters, digits, dots, colons, dashes and underscores',
    uuidReserved: 'This UUID is reserved; please use the identifier the device reports',
    alreadyAssigned: 'This device is already assigned to another participant',
    assignedCannotBeDeleted:
      'Only an unassigned device can be deleted. Remove it from its participant first.',
    notAssigned: 'This device is not assigned to a participant',
    assignFullAccessOnly: "Only full-access admins can assign, move or detach a participant's device.",
    assignedUuidFullAccessOnly:
      'Only full-access admins can change the UUID of a device assigned to a participant.',
  },
  message: {
    titleEmpty: 'Message title cannot be empty',
    titleShort: 'Message title must be at least 2 characters',
    bodyEmpty: 'Message body cannot be empty',
    bodyShort: 'Message body must be at least 2 characters',
    queued: 'Message queued for delivery',
  },
  participant: {
    firstNameEmpty: 'First name cannot be empty',
    lastNameEmpty: 'Last name cannot be empty',
    deviceEmpty: 'Device cannot be empty',
    addressEmpty: 'Address cannot be empty',
    dobEmpty: 'DOB cannot be empty',
    dobRange: 'DOB must be between 01/01/1900 and today',
    dobFormat: 'DOB must be a valid date',
    phoneEmpty: 'Phone number cannot be empty',
    phoneFormat: 'Must start with + and country code and be exactly 12 digits',
    languageEmpty: 'Language cannot be empty',
    languageInvalid: 'Language must be one of the listed languages',
    genderInvalid: 'Gender must be male or female',
    emailInvalid: 'Email must be a valid email address',
    minTwo: 'Must be at least 2 characters',
    notFound: 'Participant not found',
    nothingToChange: 'No changes were sent',
    identifiableForbidden:
      'Your access level does not allow viewing or changing identifiable participant data.',
    sortForbidden: 'Your access level does not allow sorting by this column.',
    cursorInvalid: 'The page cursor is not valid for this list; start again from page 1',
    deviceOnlyPurgeCache: 'A device may only clear its own purge_cache flag',
  },
  // ---- Safe registration and bulk referrals ----
  nhsNumber: {
    format: 'NHS number must be 10 digits, with or without spaces (e.g. 943 476 5919)',
    checkDigit:
      'This is not a valid NHS number (its check digit does not match): please check it for a typing error',
    taken: (participantId: number) => `This NHS number is already registered to participant ${participantId}`,
    /** Registered by someone else in the same instant, and gone again before it could be named. */
    takenByAnother: 'This NHS number is already registered to another participant',
  },
  possibleDuplicate: {
    /** The add form's and the edit dialog's warning; saving is never blocked by it. */
    warning: (count: number) =>
      count === 1
        ? 'A participant with the same first name, last name and date of birth is already registered. Please check this is not the same person:'
        : `${count} participants with the same first name, last name and date of birth are already registered. Please check this is not the same person:`,
  },
  participantImport: {
    notCsv:
      'This file is not a CSV file. Please save the spreadsheet as "CSV UTF-8 (comma delimited)" and choose that file.',
    tooLarge: (megabytes: number) =>
      `The file is larger than ${megabytes} MB. Please split it into smaller files and import each.`,
    tooManyRows: (max: number) =>
      `The file has more than ${max} participant rows. Please split it into smaller files and import each.`,
    noRows: 'The file has no participant rows under its header line.',
    unknownColumns: (names: string) =>
      `The file has columns the template does not: ${names}. Please use the header line of the template.`,
    missingColumns: (names: string) =>
      `The file lacks columns of the template: ${names}. Please use the header line of the template.`,
    repeatedColumns: (names: string) => `The file has these columns more than once: ${names}.`,
    malformed: (line: number) =>
      `The file is not valid CSV near line ${line} (a quote may be left open). Please check that line.`,
    cellCount: (found: number, expected: number) =>
      `This line has ${found} ${found === 1 ? 'cell' : 'cells'}; the header line has ${expected}`,
    nhsNumberRepeated: (line: number) => `This NHS number is also on line ${line} of this file`,
    possibleDuplicate: (ids: readonly number[]) =>
      `Possibly the same person as participant ${ids.join(', ')} (same first name, last name and date of birth)`,
    possibleDuplicateInFile: (line: number) =>
      `Possibly the same person as on line ${line} of this file (same first name, last name and date of birth)`,
    rowsHaveErrors: (count: number, first: string) =>
      `Nothing was imported: ${count} ${count === 1 ? 'error was' : 'errors were'} found (the first: ${first}). Please correct the file and check it again.`,
    imported: (count: number) => `${count} ${count === 1 ? 'participant' : 'participants'} imported`,
  },
  /** Discharge and re-referral. */
  lifeCycle: {
    discharged: 'Participant discharged',
    rereferred: 'Participant re-referred: choose a device and a programme as for a new participant',
    alreadyDischarged: 'This participant has already been discharged',
    dateInFuture: 'The discharge date cannot be in the future',
    dateBeforeRegistration: 'The discharge date cannot be before the participant was registered',
    notDischarged: 'This participant is active; only a discharged participant can be re-referred',
    readOnly:
      'This participant has been discharged, so their record is read-only. Re-refer them to make changes.',
    dischargeConfirm:
      'Discharging ends this participation: the tablet is detached and signed out, no more reminders are sent, and the programme position is frozen. Their history stays visible.',
    completedOffer: 'This participant has reached the end of the programme.',
  },
  /** Records due for review and their destruction. */
  records: {
    notDue: (ids: number[]) =>
      `These records are not due for review, so nothing was destroyed: ${ids.join(', ')}`,
    destroyed: (n: number) => `${n} ${n === 1 ? 'record' : 'records'} destroyed`,
    destroyConfirm:
      'Everything held about the selected participants is destroyed now: their record, programme, video views, contact log, push messages and device history. Only an audit record of the destruction is kept. This cannot be undone.',
  },
  /** Step-up re-authentication before dangerous actions. */
  stepUp: {
    required: 'For your security, please confirm your password and a new authenticator code to continue.',
    done: 'Identity confirmed',
    wrong: 'The password or the authenticator code is wrong',
  },
  /**
   * Single sign-on (OpenID Connect). `refused` is what the sign-in page shows for the reason code a
   * refused sign-in comes back with (`/login?sso=<code>`): the page is given a code, never a text,
   * so no link can make it say something else.
   */
  sso: {
    refused: {
      unknown_domain:
        'Single sign-on is not set up for that email address. Sign in with your user name, password and authenticator code, or ask your administrator.',
      provider_unreachable:
        "Your organisation's identity provider could not be reached. Please try again in a few minutes; if it stays down, ask for a break-glass account.",
      provider_refused: 'Your identity provider did not sign you in. Please try again.',
      state:
        'This sign-in has expired, was already used, or was started in another browser. Please start again from this page.',
      code: 'The identity provider refused this sign-in (its code was already used or has expired). Please start again from this page.',
      issuer:
        'The answer came from another identity provider than the one your organisation uses. Nobody was signed in; please tell your administrator.',
      audience:
        "The identity provider's answer was meant for another application. Nobody was signed in; please tell your administrator.",
      signature:
        "The identity provider's answer was not signed as expected. Nobody was signed in; please tell your administrator.",
      expired:
        "The identity provider's answer has expired (check that this computer's clock is right). Please start again from this page.",
      nonce:
        "The identity provider's answer does not belong to this sign-in. Please start again from this page.",
      acr: 'Your sign-in did not reach the level of assurance your organisation asks for (for example, with your smartcard). Please sign in again with it.',
      role: 'Your account at your identity provider gives you no role in Pathway, so you cannot sign in. Ask your administrator to give you one.',
      unknown_user: 'You have no Pathway account yet. Ask your administrator to add you.',
      email_unverified:
        'Your identity provider did not confirm an email address of your organisation for you, so your Pathway account could not be found. Ask your administrator.',
      other_organisation:
        "Your Pathway account belongs to another organisation than this identity provider's. Nobody was signed in; please tell your administrator.",
      sites:
        "Your account at your identity provider names none of your organisation's sites in Pathway, so you cannot sign in. Ask your administrator.",
      other_person:
        'You confirmed your identity as someone else than the person signed in to Pathway. Nothing was confirmed.',
      session_ended: 'Your Pathway session ended before your identity was confirmed. Please sign in again.',
      response:
        "The identity provider's answer could not be used. Nobody was signed in; please try again, and tell your administrator if it happens again.",
    },
    /** A password sign-in (right password and code) of someone whose organisation requires single sign-on. */
    passwordNotAllowed:
      'Your organisation signs in with single sign-on: enter your work email on the sign-in page. Password sign-in is kept for break-glass accounts.',
    stepUpDone: 'Identity confirmed with your identity provider. You can close this window.',
    organisationNotFound: 'Organisation not found',
    notConfigured: 'Single sign-on is not set up for this organisation',
    issuerInvalid:
      'The issuer must be an https:// address (http:// only for a provider on this machine), without a query or fragment',
    domainInvalid: 'Each email domain must be a domain name such as nhs.net',
    domainTaken: (domain: string) =>
      `The email domain ${domain} already signs in with another organisation's provider`,
    secretRequired: 'A client secret is required for client_secret_basic',
    roleMapEmpty: 'Map at least one value of the role claim to full access or basic access',
    claimInvalid:
      'A claim is a name such as roles or nhsid_nrbac_roles.role_code (letters, digits, _ - : and dots)',
    breakGlassUnknown: (userName: string) => `No admin user is called ${userName}`,
    breakGlassNeeded:
      'Single sign-on can only be required with at least one break-glass account of full access, who can still sign in when the identity provider is down',
    saved: 'Single sign-on settings saved',
    logoutTokenInvalid: 'The logout token is not valid',
  },
  referral: {
    programmeEmpty: 'Programme referred to cannot be empty',
    organisationEmpty: 'Referring Organisation cannot be empty',
    professionalEmpty: 'Referring Healthcare Professional cannot be empty',
    professionalRoleEmpty: 'Referring Healthcare Professional Role cannot be empty',
    contraindicationsEmpty: 'Contraindications To Exercise cannot be empty',
    selectionEmpty: 'Selection cannot be empty',
    programmeInvalid: 'Programme referred to must be pad-programme',
  },
  progress: {
    unableToProgress: 'Unable to progress',
    participantNotified: 'Participant notified',
    associated: 'User associated with video set',
    cannotMoveBack:
      'Cannot move participant back to other week. Only values greater or lesser than current day, and greater than current week are allowed.',
    overrideWarning: 'Overriding the video set resets all progress.',
    confirm: 'Are you sure?',
    none: 'This participant has no video set yet',
    alreadyAssigned: 'This participant already has a video set. Choosing another set resets their progress.',
    notInSet: 'This participant is not on this video set',
    weekEmpty: 'Week cannot be empty',
    dayEmpty: 'Day cannot be empty',
    weekRange: (min: number, max: number) => `Week must be between ${min} and ${max}`,
    dayRange: (max: number) => `Day must be between 1 and ${max}`,
    lastDay: 'The participant is already on the last day of the programme',
    noDevice: 'This participant has no device assigned, so the app cannot be notified',
    reset: 'Progress reset to week 1, day 1',
    moved: 'Participant moved',
    videoStoppedAtInvalid: 'video_stopped_at must be a number of seconds',
    /** A position only ever points at a day with a video: the tablet's "today" would be empty. */
    dayWithoutVideo: (week: number, day: number) =>
      `Week ${week}, day ${day} has no video yet, so the tablet would have nothing to show. Add that video first or choose another day.`,
    firstDayWithoutVideo:
      'This video set has no video for week 1, day 1 yet, so the tablet would have nothing to show. Add that video first.',
    noLaterVideo: 'There is no later day with a video in this programme yet',
  },
  /** Texts pushed to the tablet app; nothing in them identifies the participant. */
  reminders: {
    newVideoTitle: 'New video available',
    newVideoBody: 'Your next exercise video is ready. Open the app to watch it.',
    missedTitle: 'You missed one video',
    missedBody: 'Open the app to catch up with your exercise videos.',
  },
  deviceApi: {
    notRegistered: 'This device is not registered',
    badDeviceId: 'The device id must be 16 hexadecimal characters',
    notAssigned: 'This device is not assigned to a participant',
    noProgramme: 'The participant of this device has no video set yet',
    otherParticipant: 'This device belongs to another participant',
    pushTokenEmpty: 'push_notification_id cannot be empty',
    purgeCacheInvalid: 'purge_cache must be true or false',
    videoIdsEmpty: 'videoIds cannot be empty',
    unknownVideos: 'Some videos are not in this video set',
    rateLimited: (retryAfterSeconds: number) =>
      `Too many requests for this device or from this address. Please try again in ${retryAfterSeconds} seconds.`,
  },
  push: {
    queued: 'queued',
    sending: 'sending',
    sent: 'sent',
    noProvider: 'not sent: no provider configured',
    noToken: 'not sent: the participant has no push token',
    unregistered: 'failed: the app is no longer registered for push messages (token cleared)',
    discharged: 'not sent: the participant was discharged',
    failed: 'failed',
  },
  // Follow-up worklist and contact log.
  followup: {
    reasonInvalid:
      'reason must be one of behind, tablet_silent, reminders_failing, slightly_behind, programme_finished, not_started, assessment_due',
    cursorInvalid: 'The page cursor is not valid for this list; start from the first page',
    methodInvalid: 'Method must be one of phone, text, email, in_person, letter',
    outcomeInvalid: 'Outcome must be one of reached, no_answer, left_message, wrong_number, declined',
    noteTooLong: 'The note must be at most 2,000 characters',
    dateInvalid: 'The next follow-up date must be a date written YYYY-MM-DD',
    dateInPast: 'The next follow-up date must be today or later',
    contactRecorded: 'Contact recorded',
    /** The worklist's "Since" when `since_exact` is false: the reason began on or before that day. */
    sinceAtLeast: (day: string) => `at least since ${day}`,
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
  backup: {
    postgres:
      "The database is PostgreSQL: back it up with its own tools (pg_dump, or your provider's snapshots); see docs/operations.md, Backup and restore. `backup` covers the embedded database only.",
    targetExists: 'The backup file already exists; choose a new name (a backup never overwrites one)',
    notEmpty:
      'DATA_DIR is not empty: restore fills an empty (or new) data directory only, so nothing is overwritten. Stop the server and point DATA_DIR at a new directory.',
    damaged: 'The backup archive is damaged or incomplete, so nothing was restored',
    postgresRestore:
      'DATABASE_URL is set: restore fills an embedded DATA_DIR only; restore PostgreSQL with pg_restore.',
  },
  logs: {
    notFound: 'Log file not found',
    badName: 'Invalid log file name',
  },
  // Reports
  reports: {
    unknown: 'Unknown report: choose referrals, flow, adherence, programme-weeks, videos or views',
    badDate: (field: 'from' | 'to') => `\`${field}\` must be a date written YYYY-MM-DD`,
    fromAfterTo: 'The period must not end before it starts (`from` is after `to`)',
    tooLong: 'The period is longer than 3 years; choose a shorter one',
    badGrouping: 'Group by month or week',
    badSuppress: '`suppress_small` must be true or false',
    measureRequired: 'Choose a measure: `measure` is its code',
  },
  /** Outcome measures, the assessment schedule and the results recorded against them. */
  outcomes: {
    codeInvalid:
      'The code must be 1 to 30 letters, digits, dots, hyphens or underscores, beginning with a letter or a digit',
    codeTaken: (code: string) => `The code ${code} is already used by another measure`,
    nameEmpty: 'Please give the measure a name',
    nameTooLong: 'The name must be at most 200 characters',
    kindInvalid: 'Kind must be numeric or questionnaire',
    unitInvalid:
      'Unit must be one of m, km, cm, s, min, kg, kg/m2, %, mm[Hg], /min, m/s (UCUM codes; a questionnaire has {score})',
    unitRequired: 'A numeric measure needs its unit',
    unitOfQuestionnaire: "A questionnaire's score is counted in points: leave unit out, or give {score}",
    numberInvalid: (field: string) => `${field} must be a number`,
    rangeInvalid: 'The smallest plausible value must not be above the largest',
    decimalsInvalid: 'Decimals must be a whole number from 0 to 4',
    boundDecimals:
      'The smallest and largest values may not have more decimal places than the measure records',
    higherIsBetterInvalid: 'higher_is_better must be true or false',
    mcidInvalid:
      'The MCID must be a positive number no larger than the range of values, or null when none is known',
    textTooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
    loincInvalid: 'A LOINC code is written as digits, a hyphen and a check digit (64098-7)',
    scoringInvalid: 'The scoring rule must be sum or mean',
    scoringRequired: 'A questionnaire needs its scoring rule: sum or mean',
    itemsRequired: 'A questionnaire needs at least one item',
    tooManyItems: 'A questionnaire may have at most 100 items',
    numericHasItems: 'A numeric measure has no scoring rule or items',
    itemIdInvalid:
      'An item id must be 1 to 40 letters, digits, dots, hyphens or underscores, beginning with a letter or a digit',
    itemIdRepeated: (item: string) => `The item id ${item} is used twice`,
    itemTextEmpty: 'Every item needs its text',
    answersTooFew: 'Every item needs at least two allowed answers',
    tooManyAnswers: 'An item may have at most 20 allowed answers',
    answerValueRepeated: (item: string) => `Two answers of item ${item} have the same value`,
    answerLabelEmpty: 'Every answer needs its label',
    answerValueDecimals: "An answer's value may not have more decimal places than the measure records",
    scoreRange: (min: number, max: number) =>
      `The score's range must be ${min} to ${max}, as its items and scoring rule give`,
    measureNotFound: 'Measure not found',
    hasResults:
      'This measure has results, so only its name and whether it is retired can change: a new version is a new measure.',
    unknownMeasure: (code: string) => `Unknown measure: ${code}`,
    measureRetired: (code: string) => `The measure ${code} is retired: choose a current measure`,
    timepointInvalid: 'Timepoint must be baseline, interim or end',
    weekRequired: 'An interim assessment needs the programme week it belongs to',
    weekNotAllowed: 'Only an interim assessment has a week',
    weekInvalid: 'The week must be a whole number from 1',
    weekOutOfRange: (weeks: number) => `The week must be from 1 to ${weeks}, the weeks of this programme`,
    timepointRepeated: 'The schedule names the baseline and the end once each, and each interim week once',
    measureRepeated: (code: string) => `The measure ${code} appears twice in one timepoint`,
    measuresEmpty: 'Each timepoint needs at least one measure',
    tooManyTimepoints: 'A schedule may have at most 60 timepoints',
    dateInvalid: 'The date taken must be a date written YYYY-MM-DD',
    dateInFuture: 'The date taken cannot be in the future',
    dateBeforeRegistration: 'The date taken cannot be before the participant was registered',
    valueRequired: 'Please give the value',
    valueForQuestionnaire: 'A questionnaire is recorded by its answers, not a value',
    valueOutOfRange: (min: number, max: number, unit: string) =>
      `The value must be from ${min} to ${max} ${unit}: check it was taken in ${unit}`,
    valueDecimals: (decimals: number) =>
      decimals === 0
        ? 'The value must be a whole number'
        : `The value may have at most ${decimals} decimal place${decimals === 1 ? '' : 's'}`,
    answersRequired: 'Please answer every item of the questionnaire',
    answersForNumeric: 'A numeric measure is recorded by its value, not answers',
    itemUnanswered: (item: string) => `Item ${item} is not answered: every item must be`,
    itemUnknown: (item: string) => `This questionnaire has no item ${item}`,
    answerInvalid: (item: string) => `The answer to item ${item} is not one of its allowed answers`,
    noteTooLong: 'The note must be at most 2,000 characters',
    reasonRequired: 'Please say why the result is amended',
    reasonTooLong: 'The reason must be at most 500 characters',
    amendOneOf:
      'An amendment gives a new value, new answers, or entered_in_error: true (one of them), with its reason',
    assessmentNotFound: 'Result not found for this participant',
    alreadyEnteredInError: 'This result was marked as entered in error; record a new result instead',
    dischargedTooLongAgo:
      'This participant was discharged more than 4 weeks ago, so results can no longer be recorded or amended.',
    recorded: 'Result recorded',
    amended: 'Result amended',
    scheduleSaved: 'Assessment schedule saved',
    measureSaved: 'Measure saved',
  },
  generic: {
    badRequest: 'The request is not valid',
    notFound: 'Not found',
    internal: 'Something went wrong on the server. The error has been logged.',
    unavailable: 'The service is temporarily unavailable. Please try again shortly.',
    diskFull:
      'The server has run out of disk space, so this change was not saved. Nothing saved before is lost; please try again once an operator has freed space.',
    tooLarge: 'The request is too large',
    unstorableText:
      'The request contains characters that cannot be stored (a NUL character or a broken unicode sequence)',
    /** Title of the box that shows a server's refusal in the console's modals (spec §8). */
    warningTitle: 'Warning!',
    networkError: 'Could not reach the server. Check your connection and try again.',
    pageLoadFailed:
      'This page could not be loaded. The console may have been updated, or the connection dropped. Reload to try again.',
  },
} as const;
