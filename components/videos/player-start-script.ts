/**
 * The player's start button (decision 035). The video page's `<video>` comes without the browser's controls: their
 * shadow tree (some sixty elements and the media controls' own stylesheet) is styled, laid out and painted on the
 * phone's main thread while the page loads, even when nobody presses play. Over the poster sits a link to the MP4
 * (without JavaScript it opens the video in the browser's own player); this constant inline script, right after
 * the player's markup and allowed by hash like the header's (lib/http/page-policy.ts), turns it into the start
 * button before the page's bundles arrive: a click (or Enter) shows the controls, plays and moves the focus to
 * the video. Playback started any other way (the member's autoplay, a script) shows the controls too.
 *
 * Only attributes and properties change, never elements: React hydrates the tree the server sent (in production it
 * does not patch attribute differences).
 */
export const PLAYER_START_SCRIPT =
  `(function(){var p=document.currentScript.previousElementSibling,v=p.querySelector('video'),a=p.querySelector('.player-start');if(!v||!a)return;` +
  `function s(){if(v.controls)return;v.controls=true;a.hidden=true}` +
  `v.addEventListener('play',s);` +
  `a.addEventListener('click',function(e){e.preventDefault();s();v.focus();var r=v.play();if(r)r.catch(function(){})})})()`;
