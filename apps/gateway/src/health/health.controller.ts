import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PublicRoute } from '../auth/public-route.decorator';
import type { HttpResponse } from '../http/http-types';
import { ApiBody, Operation } from '../http/openapi-responses';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('healthz')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Operation('getHealth', 'Whether the platform can take a job', 'No API key needed. Answered from a one-second cache.', { public: true })
  @Get()
  @PublicRoute()
  @ApiBody(200, 'Health', 'ready to take jobs')
  @ApiBody(503, 'Health', 'not ready; checks say what is down')
  async get(@Res() res: HttpResponse): Promise<void> {
    const report = await this.health.check();
    res.status(report.status === 'ok' ? 200 : 503).json(report);
  }
}
