module example.com/homedir

go 1.19
