package org.ftlab.os.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApplicationUserTest {

    @Test
    void usersFileMatchesWhatWildFlysAddUserWrites(@TempDir Path dir) throws Exception {
        // Reference line written by WildFly 39's add-user.sh -a -u ftlab -p 'Secret123!'.
        new ApplicationUser("ftlab", "Secret123!").installInto(dir);
        String users = Files.readString(dir.resolve("application-users.properties"));
        assertEquals("#$REALM_NAME=ApplicationRealm$ realm of the users below (written by ftlab)\n"
                + "ftlab=38b8dd0e925b55a557584400b9bfbd3c\n", users);
    }

    @Test
    void credentialsAreSavedReadableOnlyByTheOwnerAndLoadBack(@TempDir Path dir) throws Exception {
        ApplicationUser user = ApplicationUser.random();
        user.save(dir);
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve(ApplicationUser.FILE_NAME))));
        assertEquals(user, ApplicationUser.load(dir));
    }

    @Test
    void everyRunGetsANewPassword() {
        assertNotEquals(ApplicationUser.random().password(), ApplicationUser.random().password());
    }
}
