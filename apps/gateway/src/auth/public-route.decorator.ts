import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'vj:public-route';

// Marks the few routes outside /v1 that answer without an API key (health).
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);
