import 'server-only';

/** README.txt at the top of every export: what each file holds. */
export function README_TEXT(siteName: string, username: string, days: number): string {
  return `Your ${siteName} data
${'='.repeat(siteName.length + 10)}

This is a copy of everything ${siteName} holds about the account "${username}",
made when you asked for it in Settings. The download link worked for ${days} days;
after that the file was deleted from our servers. Dates are ISO 8601, in UTC.
The .json files are plain text: any text editor or JSON viewer opens them.

README.txt          This file.
profile.json        Your account: username, email, date of birth, bio, settings
                    (autoplay), when you joined, whether your email is verified,
                    your VIP state, and a link to your profile photo if you set one.
videos.json         Every video you uploaded, published or not: title, description,
                    category, tags, processing state, moderation status (and the
                    reason if it was not approved), size, length, views, likes,
                    dates, where its original file is in this archive, its
                    captions (each language's WebVTT text, as the player shows
                    it), and any new title, description and tags waiting for
                    review.
videos/             The original files you uploaded, exactly as you sent them:
                    videos/{video id}/original.{ext}. A video whose original is
                    no longer stored has "originalFile": null in videos.json.
comments.json       Every comment you wrote, with the video it is on.
likes.json          The videos you liked, and when.
history.json        Your watch history: each video you watched, where you stopped,
                    whether you watched it to the end, and when.
playlists.json      Your playlists: title, description, visibility (private,
                    unlisted or public), dates, and their videos in order, with
                    when each was added.
follows.json        "following": the members you follow; "followers": the members
                    who follow you (by username), with the date each started.
notifications.json  The notifications you received: type, text, who caused it
                    (for follows, likes and comments), link, and whether you read it.
daily-tasks.json    Your VIP daily tasks: the counter, your streak, and each day you
                    completed a task with that day's task.
payments.json       Your VIP periods, the checkouts you started, and every payment
                    event recorded for your account (purchases, renewals,
                    cancellations, refunds, expiry). Card details never reach us;
                    the payment processor keeps them.
blocks.json         The members you blocked, and when.
verification.json   Each identity verification you sent: the legal name and date
                    of birth you gave, its status, the reason if it was rejected,
                    and when it will be deleted. The ID photo and the selfie are
                    not in this archive: they stay encrypted on our servers, are
                    shown only to the admins who check them, and are deleted on
                    the date given. Ask us through the Privacy Policy's contact
                    if you want a copy.
decisions.json      Every decision we took about your videos or your account
                    (statements of reasons): what, on which rule or law, whether
                    it was automated, the appeal deadline, and your appeals with
                    their outcome.

Questions about your data: see our Privacy Policy on the site.
`;
}
