package osfile

const sysRenameat2 = 316
