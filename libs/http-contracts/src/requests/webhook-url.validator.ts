import { isWebhookUrl, WEBHOOK_URL_MAX_LENGTH } from '@vj/contracts';
import { registerDecorator, type ValidationOptions } from 'class-validator';

export function IsWebhookUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `$property must be an http(s) URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters without credentials`, ...options },
      validator: { validate: isWebhookUrl },
    });
}
