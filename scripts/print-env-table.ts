import { environmentTable } from './env-catalogue';

process.stdout.write(`${environmentTable()}\n`);
