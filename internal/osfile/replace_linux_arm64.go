package osfile

const sysRenameat2 = 276
