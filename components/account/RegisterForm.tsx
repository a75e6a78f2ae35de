'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';

import { apiRequest } from '@/lib/client/api-client';
import { registerSchema, todayIso, type RegisterInput } from '@/lib/validation/auth';

import { serverMessage, TextField } from './form-parts';
import { PHOTO_TYPES, photoFileProblem } from './photo-file';
import { VerificationPopup } from './VerificationPopup';

export function RegisterForm() {
  // The browser's own calendar day decides "future" and "18 years" in the form; the server checks again in UTC.
  const schema = useMemo(() => registerSchema(() => todayIso(new Date(), true)), []);
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const preview = useMemo(() => (photo ? URL.createObjectURL(photo) : null), [photo]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<RegisterInput>({ resolver: zodResolver(schema), mode: 'onTouched' });

  function choosePhoto(file: File | undefined) {
    setPhotoError(null);
    if (!file) return setPhoto(null);
    const problem = photoFileProblem(file);
    if (problem) {
      setPhoto(null);
      setPhotoError(problem);
      return;
    }
    setPhoto(file);
  }

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    if (photoError) return;
    const form = new FormData();
    for (const [key, value] of Object.entries(values)) form.append(key, value);
    if (photo) form.append('profilePhoto', photo);
    try {
      await apiRequest('/api/auth/register', { form });
      setRegisteredEmail(values.email);
      reset();
      setPhoto(null);
    } catch (error) {
      setFormError(serverMessage(error, 'Failed to register'));
    }
  });

  const field = (name: keyof RegisterInput, label: string, type: string, autoComplete: string) => (
    <TextField
      id={`register-${name}`}
      label={label}
      type={type}
      autoComplete={autoComplete}
      error={errors[name]?.message}
      {...register(name)}
    />
  );

  return (
    <>
      <form className="form-card" onSubmit={onSubmit} noValidate>
        {field('username', 'Username', 'text', 'username')}
        {field('email', 'Email', 'email', 'email')}
        {field('password', 'Password', 'password', 'new-password')}
        {field('confirmPassword', 'Confirm password', 'password', 'new-password')}
        {field('dateOfBirth', 'Date of birth', 'date', 'bday')}
        <div className="field">
          <label htmlFor="register-photo">Profile photo (optional)</label>
          <div className="photo-picker">
            {preview ? (
              // A local object URL: next/image cannot optimise it.
              // eslint-disable-next-line @next/next/no-img-element
              <img src={preview} alt="Preview of your profile photo" width={64} height={64} className="avatar-preview" />
            ) : (
              <span className="avatar-preview avatar-empty" aria-hidden="true" />
            )}
            <input
              id="register-photo"
              type="file"
              accept={PHOTO_TYPES.join(',')}
              aria-describedby="register-photo-error"
              onChange={(e) => choosePhoto(e.target.files?.[0])}
            />
          </div>
          <p id="register-photo-error" className="field-error">
            {photoError}
          </p>
        </div>
        <p className="terms-note">
          By creating an account you confirm that you are at least 18 years old and agree to our{' '}
          <a href="/terms-of-use">Terms of Use</a> and <a href="/community-standards">Community Standards</a>, and that you
          explicitly consent to us processing the sensitive information your activity here may reveal, as our{' '}
          <a href="/privacy-policy">Privacy Policy</a> describes.
        </p>
        <p role="alert" className="form-error">
          {formError}
        </p>
        <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting}>
          {isSubmitting ? 'Creating account…' : 'Sign up'}
        </button>
        <p className="form-foot">
          Already a member? <a href="/login">Log in</a>
        </p>
      </form>
      {registeredEmail && (
        <VerificationPopup
          email={registeredEmail}
          onClose={() => setRegisteredEmail(null)}
          failureFallback="Failed to resend verification email"
        />
      )}
    </>
  );
}
