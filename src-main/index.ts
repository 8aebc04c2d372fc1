import { runElectronHost } from './hosts/electron';

void runElectronHost();
