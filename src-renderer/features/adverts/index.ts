/** The adverts feature's public face: the shell's autopublish alert bell. */
export { AlertBell } from './AlertBell';
