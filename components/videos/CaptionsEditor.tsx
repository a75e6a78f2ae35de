'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

import { serverMessage, StatusLine, type Status } from '@/components/account/form-parts';
import type { ManagedCaptionDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import {
  CAPTION_FILE_ACCEPT,
  CAPTION_FILE_MAX_BYTES,
  CAPTION_LANGUAGES_MAX,
  canonicalLanguage,
  COMMON_CAPTION_LANGUAGES,
  languageLabel,
} from '@/lib/media/captions';

const OTHER = 'other';

type Answer = { captions: ManagedCaptionDto[]; message?: string };

/**
 * The captions part of a video's edit form (decision 051): the languages it has, and a file per language to add or
 * replace (WebVTT or SubRip; the server turns it into plain WebVTT and says what to fix in one it cannot read).
 * Each upload or removal is saved at once, apart from the text fields' Save.
 */
export function CaptionsEditor({ streamVideoId }: { streamVideoId: string }) {
  const id = useId();
  const endpoint = `/api/videos/${encodeURIComponent(streamVideoId)}/captions`;
  const [captions, setCaptions] = useState<ManagedCaptionDto[] | null>(null);
  const [choice, setChoice] = useState<string>(COMMON_CAPTION_LANGUAGES[0]);
  const [otherTag, setOtherTag] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    apiRequest<Answer>(endpoint)
      .then((answer) => live && setCaptions(answer.captions))
      .catch((error: unknown) => live && setStatus({ ok: false, text: serverMessage(error, 'Could not load the captions.') }));
    return () => {
      live = false;
    };
  }, [endpoint]);

  const language = choice === OTHER ? canonicalLanguage(otherTag) : choice;
  const existing = captions?.find((track) => track.language === language);
  const full = (captions?.length ?? 0) >= CAPTION_LANGUAGES_MAX && !existing;

  async function upload(event: FormEvent) {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!language) return setStatus({ ok: false, text: 'Type a language tag such as en, es or pt-BR.' });
    if (!file) return setStatus({ ok: false, text: 'Choose a WebVTT (.vtt) or SubRip (.srt) file.' });
    if (file.size > CAPTION_FILE_MAX_BYTES)
      return setStatus({ ok: false, text: `The captions file is larger than ${CAPTION_FILE_MAX_BYTES / 1024} KB.` });
    const form = new FormData();
    form.append('file', file);
    setBusy('upload');
    setStatus(null);
    try {
      const answer = await apiRequest<Answer>(`${endpoint}/${encodeURIComponent(language)}`, { method: 'PUT', form });
      setCaptions(answer.captions);
      setStatus({ ok: true, text: answer.message ?? 'Captions saved.' });
      if (fileInput.current) fileInput.current.value = '';
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Failed to upload the captions.') });
    } finally {
      setBusy(null);
    }
  }

  async function remove(track: ManagedCaptionDto) {
    setBusy(track.language);
    setStatus(null);
    try {
      const answer = await apiRequest<Answer>(`${endpoint}/${encodeURIComponent(track.language)}`, { method: 'DELETE' });
      setCaptions(answer.captions);
      setStatus({ ok: true, text: answer.message ?? 'Captions removed.' });
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Failed to remove the captions.') });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="captions-editor" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Captions</h3>
      <p className="video-manage-note">
        A WebVTT (.vtt) or SubRip (.srt) file per language, at most {CAPTION_FILE_MAX_BYTES / 1024} KB. Captions are live as soon
        as they are uploaded; only their timing and text are kept (bold, italic and underline too).
      </p>
      {captions === null ? (
        !status && <p className="video-manage-note">Loading captions…</p>
      ) : captions.length === 0 ? (
        <p className="video-manage-note">No captions yet.</p>
      ) : (
        <ul className="captions-list" aria-label="Captions of this video">
          {captions.map((track) => (
            <li key={track.language}>
              <span className="captions-language">
                {track.label} <span className="upload-optional">({track.language})</span>
              </span>
              <span className="upload-optional">
                {track.cueCount.toLocaleString('en-US')} {track.cueCount === 1 ? 'caption' : 'captions'}
              </span>
              <a href={track.url} target="_blank" rel="noopener">
                View file
              </a>
              <button
                type="button"
                className="btn btn-ghost btn-small"
                onClick={() => void remove(track)}
                disabled={busy !== null}
                aria-label={`Remove ${track.label} captions`}
              >
                {busy === track.language ? 'Removing…' : 'Remove'}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="captions-add" onSubmit={(event) => void upload(event)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-language`}>Language</label>
          <select
            id={`${id}-language`}
            className="upload-select"
            value={choice}
            onChange={(event) => setChoice(event.target.value)}
          >
            {COMMON_CAPTION_LANGUAGES.map((tag) => (
              <option key={tag} value={tag}>
                {languageLabel(tag)} ({tag})
              </option>
            ))}
            <option value={OTHER}>Another language…</option>
          </select>
        </div>
        {choice === OTHER && (
          <div className="field">
            <label htmlFor={`${id}-tag`}>Language tag</label>
            <input
              id={`${id}-tag`}
              value={otherTag}
              onChange={(event) => setOtherTag(event.target.value)}
              placeholder="ca, fil, es-MX…"
              aria-describedby={`${id}-tag-hint`}
              autoComplete="off"
            />
            <p id={`${id}-tag-hint`} className="video-manage-note">
              {language ? languageLabel(language) : 'A BCP 47 language tag, as subtitle editors name languages.'}
            </p>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-file`}>Captions file</label>
          <input id={`${id}-file`} ref={fileInput} type="file" accept={CAPTION_FILE_ACCEPT} />
        </div>
        <button type="submit" className="btn btn-ghost" disabled={busy !== null || full || captions === null}>
          {busy === 'upload' ? 'Uploading…' : existing ? `Replace ${existing.label} captions` : 'Add captions'}
        </button>
        {full && <p className="video-manage-note">A video can have captions in at most {CAPTION_LANGUAGES_MAX} languages.</p>}
      </form>
      <StatusLine status={status} />
    </section>
  );
}
