import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type User } from '@rodmenys/contract';
import { Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** First and last name, required (registration, profile, editing a user). */
export function NameFields({ autoFocus }: { autoFocus?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        label={t('register.firstName')}
        name="firstName"
        rules={[{ required: true, whitespace: true, message: t('register.firstNameRequired') }]}
      >
        <Input autoComplete="given-name" maxLength={NAME_MAX_LENGTH} autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item
        label={t('register.lastName')}
        name="lastName"
        rules={[{ required: true, whitespace: true, message: t('register.lastNameRequired') }]}
      >
        <Input autoComplete="family-name" maxLength={NAME_MAX_LENGTH} />
      </Form.Item>
    </>
  );
}

/** Email and phone, optional. */
export function ContactFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('users.email')} name="email" rules={[{ type: 'email', message: t('profile.emailInvalid') }]}>
        <Input type="email" autoComplete="email" maxLength={200} />
      </Form.Item>
      <Form.Item label={t('users.phone')} name="phone">
        <Input type="tel" autoComplete="tel" maxLength={200} />
      </Form.Item>
    </>
  );
}

/** A new password: required, at least PASSWORD_MIN_LENGTH characters. */
export function NewPasswordField({ name, label }: { name: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      label={label}
      name={name}
      rules={[
        { required: true, message: t('register.passwordRequired') },
        { min: PASSWORD_MIN_LENGTH, message: t('register.passwordMin', { count: PASSWORD_MIN_LENGTH }) },
      ]}
    >
      <Input.Password autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} />
    </Form.Item>
  );
}

/** The values of NameFields and ContactFields. */
export interface DetailsForm {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}

/** A user's names and contacts as the form's initial values. */
export const detailsValues = (user: Pick<User, 'FirstName' | 'LastName' | 'Email' | 'Phone'>): DetailsForm => ({
  firstName: user.FirstName,
  lastName: user.LastName,
  email: user.Email ?? '',
  phone: user.Phone ?? '',
});

/** The form's names and contacts as the API takes them: trimmed, a blank contact means none. */
export const detailsBody = (values: DetailsForm) => ({
  firstName: values.firstName.trim(),
  lastName: values.lastName.trim(),
  email: values.email?.trim() || null,
  phone: values.phone?.trim() || null,
});

/**
 * Messages only after a submit attempt (docs/domain.md §10): nothing is validated while typing until
 * the form has been submitted once; from then on, as the user corrects.
 */
export function useValidateAfterSubmit() {
  const [submitted, setSubmitted] = useState(false);
  return {
    validateTrigger: submitted ? 'onChange' : (false as const),
    onSubmitAttempt: () => setSubmitted(true),
  };
}
