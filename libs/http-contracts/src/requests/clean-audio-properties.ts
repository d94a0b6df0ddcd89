import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsBoolean, IsNumber, IsOptional, Max, Min } from 'class-validator';

// The clean-audio options, validated alike wherever a body takes them (a create, an export); each
// says what it is when left out.

export function StrengthProperty(whenLeftOut: Pick<ApiPropertyOptions, 'default' | 'description'>): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ minimum: 0, maximum: 1, ...whenLeftOut }), IsOptional(), IsNumber({ allowNaN: false, allowInfinity: false }), Min(0), Max(1));
}

export function NormalizeLoudnessProperty(whenLeftOut: Pick<ApiPropertyOptions, 'default' | 'description'>): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional(whenLeftOut), IsOptional(), IsBoolean());
}

export function TargetLufsProperty(whenLeftOut: Pick<ApiPropertyOptions, 'default' | 'description'>): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ minimum: -40, maximum: -8, ...whenLeftOut }), IsOptional(), IsNumber({ allowNaN: false, allowInfinity: false }), Min(-40), Max(-8));
}
